package fsil.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import fsil.api.FsilException;
import fsil.eval.report.Report;
import fsil.eval.run.RunSpec;
import fsil.eval.run.Runner;
import fsil.eval.run.VariantSpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** Runs methods x datasets under one protocol into a run directory, or resumes one. */
@Command(name = "run", sortOptions = false, description = {
        "Run methods x datasets under a protocol; writes spec.json, config.json, environment.json, units.csv, "
                + "summary.csv, a_matrix.csv, reliability.csv and report.html into the run directory.",
        "Example: fsil run --methods 'ncm,ppca,rbf:ppca[q=0]' --datasets fashion-mnist --protocol cil --steps 5"})
final class RunCommand implements Callable<Integer> {
    @Option(names = "--methods", description = "comma-separated method variants, e.g. 'ncm,ppca[q=0],label:knn[k=1]'")
    String methods;
    @Option(names = "--datasets", description = "comma-separated dataset names (see 'fsil datasets')")
    String datasets;
    @Option(names = "--protocol", description = "fewshot, cil, fscil, ncmf or gp-classes")
    String protocol;
    @Option(names = "--backbone", description = "identity (default) or pretrained-mlp")
    String backbone;
    @Option(names = "--episodes", description = "fewshot: number of episodes")
    String episodes;
    @Option(names = "--ways", description = "fewshot/fscil: classes per episode or session (a list makes several settings)")
    String ways;
    @Option(names = "--shots", description = "fewshot/fscil: shots per class (a list, e.g. 1,5, makes several settings)")
    String shots;
    @Option(names = "--queries", description = "fewshot: queries per episode in total")
    String queries;
    @Option(names = "--query-allocation", description = "fewshot: balanced or dirichlet")
    String queryAllocation;
    @Option(names = "--steps", description = "cil: incremental steps after the base step")
    String steps;
    @Option(names = "--base-classes", description = "cil/fscil: classes in the first step")
    String baseClasses;
    @Option(names = {"-o", "--option"}, description = "any protocol option, name=value or name=v1,v2 (repeatable)")
    List<String> extraOptions = new ArrayList<>();
    @Option(names = "--set", description = "method parameter for every variant of a method, method.param=value (repeatable)")
    List<String> sets = new ArrayList<>();
    @Option(names = "--order-seed", description = "seed of class orders and episodes (default 1993)")
    Long orderSeed;
    @Option(names = "--train-seed", description = "seed of the methods' randomness (default 0)")
    Long trainSeed;
    @Option(names = "--backbone-seed", description = "seed of the backbone training (default 1)")
    Long backboneSeed;
    @Option(names = "--threads", description = "units run in parallel (default: all cores); results do not depend on it")
    Integer threads;
    @Option(names = "--out", description = "run directory (default runs/<protocol>-<time>)")
    Path out;
    @Option(names = "--run-file", description = "a JSON or YAML run file with the same fields; flags override it")
    Path runFile;
    @Option(names = "--resume", description = "resume the run in this directory (completed units are skipped)")
    Path resume;
    @Option(names = "--cache", description = "cache directory for datasets and features (default $FSIL_CACHE or ~/.cache/fsil)")
    Path cache;
    @Option(names = "--quiet", description = "no progress bar")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Runner runner = Cli.injector(cache).getInstance(Runner.class);
        if (!quiet) {
            runner.withProgress(new ConsoleProgress(err));
        }
        Runner.Outcome o;
        if (resume != null) {
            o = runner.resume(resume, threads == null ? 0 : threads);
        } else {
            RunSpec rs = spec();
            Path dir = this.out != null ? this.out : Paths.get("runs", rs.protocol() + "-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            o = runner.run(rs, dir);
        }
        printOutcome(out, o);
        return o.failed() > 0 ? 3 : 0;
    }

    static void printOutcome(PrintWriter out, Runner.Outcome o) {
        out.println(Headline.text(o.records()));
        out.printf("%d units (%d run now), %d failed. Report: %s%n", o.records().size(), o.ranNow(), o.failed(),
                o.dir().resolve(Report.HTML));
        out.flush();
    }

    RunSpec spec() throws IOException {
        Map<String, Object> file = runFile == null ? Map.of() : readRunFile(runFile);
        String m = methods != null ? methods : (String) file.get("methods");
        String d = datasets != null ? datasets : (String) file.get("datasets");
        String p = protocol != null ? protocol : (String) file.get("protocol");
        if (m == null || d == null || p == null) {
            throw new FsilException("a run needs --methods, --datasets and --protocol (or a --run-file with them); "
                    + "e.g. fsil run --methods ncm,knn --datasets digits --protocol fewshot");
        }
        List<VariantSpec> variants = new ArrayList<>(VariantSpec.parseList(m));
        for (String s : sets) {
            int eq = s.indexOf('=');
            int dot = s.indexOf('.');
            if (eq < 0 || dot < 0 || dot > eq) {
                throw new FsilException("--set expects method.param=value, got '" + s + "'");
            }
            String target = s.substring(0, dot);
            Map<String, String> kv = Map.of(s.substring(dot + 1, eq), s.substring(eq + 1));
            boolean matched = false;
            for (int i = 0; i < variants.size(); i++) {
                VariantSpec v = variants.get(i);
                if (v.method().equals(target) || v.label().equals(target)) {
                    variants.set(i, v.withParams(kv));
                    matched = true;
                }
            }
            if (!matched) {
                throw new FsilException("--set " + s + ": no method variant '" + target + "' in --methods");
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, List<String>> options = new LinkedHashMap<>((Map<String, List<String>>) file.getOrDefault("options", Map.of()));
        putOption(options, "episodes", episodes);
        putOption(options, "ways", ways);
        putOption(options, "shots", shots);
        putOption(options, "queries", queries);
        putOption(options, "query-allocation", queryAllocation);
        putOption(options, "steps", steps);
        putOption(options, "base-classes", baseClasses);
        for (String kv : extraOptions) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new FsilException("--option expects name=value, got '" + kv + "'");
            }
            putOption(options, kv.substring(0, eq).trim(), kv.substring(eq + 1));
        }
        return new RunSpec(variants, splitDatasets(d),
                backbone != null ? backbone : (String) file.getOrDefault("backbone", "identity"), p, options,
                orderSeed != null ? orderSeed : ((Number) file.getOrDefault("order_seed", RunSpec.DEFAULT_ORDER_SEED)).longValue(),
                trainSeed != null ? trainSeed : ((Number) file.getOrDefault("train_seed", 0)).longValue(),
                backboneSeed != null ? backboneSeed : ((Number) file.getOrDefault("backbone_seed", 1)).longValue(),
                threads != null ? threads : ((Number) file.getOrDefault("threads", 0)).intValue());
    }

    /**
     * Splits a dataset list at commas, except commas inside a parameterised name:
     * {@code synthetic:classes=40,dim=64,digits} is [synthetic:classes=40,dim=64, digits].
     */
    static List<String> splitDatasets(String text) {
        List<String> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            boolean continuation = p.contains("=") && !p.contains(":") && !out.isEmpty() && out.get(out.size() - 1).contains(":");
            if (continuation) {
                out.set(out.size() - 1, out.get(out.size() - 1) + "," + p);
            } else {
                out.add(p);
            }
        }
        return out;
    }

    private static void putOption(Map<String, List<String>> options, String name, String value) {
        if (value != null) {
            options.put(name, Arrays.stream(value.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList());
        }
    }

    /** Reads a JSON or YAML run file into plain values (lists joined for methods and datasets). */
    static Map<String, Object> readRunFile(Path f) throws IOException {
        String name = f.getFileName().toString();
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? new ObjectMapper(new YAMLFactory())
                : new ObjectMapper();
        JsonNode root;
        try {
            root = mapper.readTree(f.toFile());
        } catch (IOException e) {
            throw new FsilException("cannot read run file " + f + ": " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new FsilException("run file " + f + " must hold an object with methods, datasets, protocol, ...");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            switch (e.getKey()) {
                case "methods", "datasets" -> m.put(e.getKey(), v.isArray() ? joinArray(v) : v.asText());
                case "protocol", "backbone" -> m.put(e.getKey(), v.asText());
                case "order_seed", "train_seed", "backbone_seed", "threads" -> m.put(e.getKey(), v.asLong());
                case "options" -> {
                    Map<String, List<String>> o = new LinkedHashMap<>();
                    for (Iterator<Map.Entry<String, JsonNode>> oi = v.fields(); oi.hasNext(); ) {
                        Map.Entry<String, JsonNode> oe = oi.next();
                        List<String> vals = new ArrayList<>();
                        if (oe.getValue().isArray()) {
                            oe.getValue().forEach(x -> vals.add(x.asText()));
                        } else {
                            vals.addAll(Arrays.asList(oe.getValue().asText().split(",")));
                        }
                        o.put(oe.getKey(), vals);
                    }
                    m.put("options", o);
                }
                default -> throw new FsilException("run file " + f + ": unknown field '" + e.getKey()
                        + "'. Fields: methods, datasets, protocol, backbone, options, order_seed, train_seed, "
                        + "backbone_seed, threads");
            }
        }
        return m;
    }

    private static String joinArray(JsonNode v) {
        List<String> s = new ArrayList<>();
        v.forEach(x -> s.add(x.asText()));
        return String.join(",", s);
    }
}

package fsil.app.cli;

import fsil.api.FsilException;
import fsil.eval.report.Report;
import fsil.eval.run.Engines;
import fsil.eval.run.RunSpec;
import fsil.eval.run.RunSpecBuilder;
import fsil.eval.run.Runner;
import fsil.eval.metrics.Metric;
import jakarta.inject.Inject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs methods x datasets under one protocol into a run directory, or resumes one. */
@Command(name = "run", sortOptions = false, mixinStandardHelpOptions = true, description = {
        "Run methods x datasets under a protocol; writes spec.json, config.json, environment.json, units.csv, "
                + "summary.csv, a_matrix.csv, reliability.csv and report.html into the run directory.",
        "Example: fsil run --methods 'ncm,ppca,rbf:ppca[q=0]' --datasets digits --protocol cil --steps 5"})
final class RunCommand extends CachedCommand {
    @Option(names = "--methods", paramLabel = "LIST",
            description = "method variants, e.g. 'ncm,ppca[q=0],label:knn[k=1]' (see 'fsil methods')")
    String methods;
    @Option(names = "--datasets", paramLabel = "LIST", description = "dataset names (see 'fsil datasets')")
    String datasets;
    @Option(names = "--protocol", paramLabel = "NAME", description = "required unless --resume or --run-file gives "
            + "it: fewshot, cil, fscil, ncmf, gp-classes, ... (see 'fsil protocols')")
    String protocol;
    @Option(names = "--backbone", paramLabel = "SPEC", description = "identity (default), pretrained-mlp[hidden=512-256-128,epochs=15,...], or another listed by fsil backbones")
    String backbone;
    @Option(names = "--episodes", paramLabel = "N", description = "fewshot: episodes per setting (default 600)")
    String episodes;
    @Option(names = "--ways", paramLabel = "K", description = "fewshot/fscil: classes per episode or session (default 5)")
    String ways;
    @Option(names = "--shots", paramLabel = "L", description = "fewshot/fscil: shots per class (default 1 / 5); a list, "
            + "e.g. 1,5, makes one setting each")
    String shots;
    @Option(names = "--queries", paramLabel = "Q", description = "fewshot: queries per EPISODE in total, not per class "
            + "(default 75 = 15 per class at 5-way)")
    String queries;
    @Option(names = "--query-allocation", paramLabel = "A", description = "fewshot: balanced (default) or dirichlet")
    String queryAllocation;
    @Option(names = "--steps", paramLabel = "S", description = "cil: incremental steps after the base step (default 5)")
    String steps;
    @Option(names = "--base-classes", paramLabel = "B", description = "cil/fscil: classes in the first step "
            + "(default: half / 60%%)")
    String baseClasses;
    @Option(names = {"-o", "--option"}, paramLabel = "NAME=V", description = "any protocol option, name=value or "
            + "name=v1,v2 (repeatable); every protocol's options are listed below")
    List<String> extraOptions = new ArrayList<>();
    @Option(names = "--set", paramLabel = "M.P=V", description = "a parameter of every variant of a method, "
            + "method.param=value (repeatable)")
    List<String> sets = new ArrayList<>();
    @Option(names = "--select", paramLabel = "M.P=V,V", description = "choose a parameter on the validation classes "
            + "before the run, e.g. 'ppca.q=0,4,10,20' (repeatable; several of one method make a grid); the run "
            + "must evaluate on other classes (fewshot: novel, the default) and each dataset needs a validation split. "
            + "The choice and every candidate's score go to selection.csv")
    List<String> select = new ArrayList<>();
    @Option(names = "--select-metric", paramLabel = "NAME", description = "what --select maximises (minimises for "
            + "ece, forgetting, ...; default episode_acc, or final_acc for incremental protocols): a score, checked "
            + "before any work (episodes: episode_acc, ece, mce, adaptive_ece, nll, brier; incremental runs: "
            + "final_acc, avg_incremental_acc, forgetting_max, forgetting_first, bwt and the calibration scores)")
    String selectMetric;
    @Option(names = "--calibrate", paramLabel = "HOW", description = "none (default) or temperature: fit one "
            + "temperature per method, dataset and setting on held-out data (validation classes; base classes without "
            + "them; held-out training samples for incremental protocols) and report calibration metrics raw and "
            + "scaled (ece and ece_ts, nll and nll_ts, ...); accuracy is unchanged. Fits go to temperature.csv")
    String calibrate;
    @Option(names = "--order-seed", paramLabel = "N", description = "seed of class orders and episodes (default 1993)")
    Long orderSeed;
    @Option(names = "--train-seed", paramLabel = "N", description = "seed of the methods' randomness (default 0)")
    Long trainSeed;
    @Option(names = "--backbone-seed", paramLabel = "N", description = "seed of the backbone training (default 1)")
    Long backboneSeed;
    @Option(names = "--threads", paramLabel = "N", description = "units run in parallel (default: all cores); the "
            + "numbers do not depend on it")
    Integer threads;
    @Option(names = "--engine", paramLabel = "NAME", description = "what runs the units: local (default, a thread "
            + "pool) or spark (Apache Spark, an optional module: engine-spark/README.md); the numbers do not depend "
            + "on it, and a run started on one engine can be resumed on another")
    String engine;
    @Option(names = "--master", paramLabel = "URL", description = "spark: local[N], spark://host:7077, yarn, "
            + "k8s://...; default: spark.master of the Spark configuration, else local[*]")
    String master;
    @Option(names = "--engine-option", paramLabel = "NAME=V", description = "an option of the engine (repeatable), "
            + "e.g. features=shared or units-per-task=4 for spark")
    List<String> engineOptions = new ArrayList<>();
    @Option(names = "--out", paramLabel = "DIR", description = "run directory, new or empty (default "
            + "runs/<protocol>-<time>)")
    Path out;
    @Option(names = "--run-file", paramLabel = "FILE", description = "a JSON or YAML run file with the same fields; "
            + "flags override it")
    Path runFile;
    @Option(names = "--resume", paramLabel = "DIR", description = "continue the run in DIR as its spec.json says "
            + "(completed units are kept; only --threads, --retry-failed, --cache, --quiet and the engine options may "
            + "be given with it)")
    Path resume;
    @Option(names = "--retry-failed", description = "with --resume: run the units recorded as failed again (in the "
            + "selection and calibration runs too) instead of keeping their failure")
    boolean retryFailed;
    @Option(names = "--quiet", description = "no progress output")
    boolean quiet;

    @Inject
    Runner runner;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        runner.withEngine(Engines.create(plugins.engines(), engine, engineOptions()));
        if (!quiet) {
            runner.withProgress(ConsoleProgress.of(spec.commandLine().getErr()));
        }
        Runner.Outcome o;
        if (resume != null) {
            List<String> given = specFlags();
            if (!given.isEmpty()) {
                throw new FsilException("--resume continues the run as its spec.json says; " + String.join(", ", given)
                        + " cannot change it. Start a new run with --out instead");
            }
            o = runner.resume(resume, threads == null ? 0 : threads, retryFailed);
        } else {
            if (retryFailed) {
                throw new FsilException("--retry-failed goes with --resume DIR: it runs the failed units of that run "
                        + "again");
            }
            RunSpec rs = spec();
            Path dir = this.out != null ? this.out : Paths.get("runs", rs.protocol() + "-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            o = runner.run(rs, dir);
        }
        return printOutcome(out, spec.commandLine().getErr(), o, plugins.metrics().all());
    }

    /** The help's footer: every protocol with its options and their defaults (they are plugins, so read at run time). */
    String protocolOptions(int width) {
        StringBuilder sb = new StringBuilder("%nProtocols and their options (give them with -o NAME=V, or --episodes, --ways, ..."
                + " above; a list V1,V2 makes one setting each):%n");
        for (fsil.eval.protocol.Protocol p : plugins.protocols().all()) {
            sb.append("%n").append(TextWrap.wrap("  " + p.id() + ": ", p.description(), 4, width)
                    .replace("%", "%%")).append("%n");
            sb.append(MethodsCommand.parameters(p.parameters(), width).replace("%", "%%").replace("\n", "%n"))
                    .append("%n");
        }
        return sb.toString();
    }

    /**
     * The headline (with the parameters chosen on the validation classes), the counts and the rows dropped, the
     * run's notes and each distinct failure once, whether or not progress is shown; exit code 3 when units failed.
     */
    static int printOutcome(PrintWriter out, PrintWriter err, Runner.Outcome o, List<Metric> metrics) {
        out.println(Headline.text(o.records(), o.choices(), metrics));
        String dropped = o.dropped().isEmpty() ? "" : "; " + Runner.count(o.dropped().size(), "invalid row") + " of "
                + Runner.UNITS + " dropped and recomputed";
        out.printf("%s in %s (%s run now%s), %s failed.%nReport: %s%n", Runner.count(o.tasks(), "task"),
                Runner.count(o.records().size(), "unit"), Runner.count(o.ranNow(), "unit"), dropped,
                Runner.count(o.failedTasks(), "task"), o.dir().resolve(Report.HTML));
        out.flush();
        for (String note : o.notes()) {
            err.println(note);
        }
        for (String reason : o.failureReasons()) {
            err.println("failed: " + reason);
        }
        err.flush();
        return o.failedTasks() > 0 ? 3 : 0;
    }

    /** --master and --engine-option as engine options. */
    private Map<String, String> engineOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        if (master != null) {
            if (master.isBlank()) {
                throw new FsilException("--master is empty: give e.g. local[2] or spark://host:7077");
            }
            o.put("master", master);
        }
        for (String kv : engineOptions) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new FsilException("--engine-option expects name=value, got '" + kv + "'");
            }
            String name = kv.substring(0, eq).trim();
            if (o.put(name, kv.substring(eq + 1).trim()) != null) {
                throw new FsilException("engine option '" + name + "' is given twice");
            }
        }
        return o;
    }

    /** The flags that define a run (not allowed with --resume). */
    private List<String> specFlags() {
        List<String> given = new ArrayList<>();
        Map<String, Object> flags = new LinkedHashMap<>();
        flags.put("--methods", methods);
        flags.put("--datasets", datasets);
        flags.put("--protocol", protocol);
        flags.put("--backbone", backbone);
        flags.put("--episodes", episodes);
        flags.put("--ways", ways);
        flags.put("--shots", shots);
        flags.put("--queries", queries);
        flags.put("--query-allocation", queryAllocation);
        flags.put("--steps", steps);
        flags.put("--base-classes", baseClasses);
        flags.put("--order-seed", orderSeed);
        flags.put("--train-seed", trainSeed);
        flags.put("--backbone-seed", backboneSeed);
        flags.put("--out", out);
        flags.put("--run-file", runFile);
        flags.put("--select-metric", selectMetric);
        flags.put("--calibrate", calibrate);
        flags.forEach((k, v) -> {
            if (v != null) {
                given.add(k);
            }
        });
        if (!extraOptions.isEmpty()) {
            given.add("--option");
        }
        if (!sets.isEmpty()) {
            given.add("--set");
        }
        if (!select.isEmpty()) {
            given.add("--select");
        }
        return given;
    }

    /** The run file's fields with the flags laid over them, checked once by {@link RunSpecBuilder#build}. */
    RunSpec spec() {
        RunSpecBuilder b = runFile == null ? new RunSpecBuilder("command line") : RunSpecBuilder.read(runFile);
        b.methods(methods).datasets(datasets).protocol(protocol).backbone(backbone).orderSeed(orderSeed)
                .trainSeed(trainSeed).backboneSeed(backboneSeed).threads(threads);
        if (!b.hasProtocol()) {
            throw new FsilException("--protocol is required (unless --resume or --run-file gives it); one of "
                    + String.join(", ", plugins.protocols().all().stream().map(p -> p.id()).sorted().toList())
                    + ", e.g. fsil run --methods ncm,knn --datasets digits --protocol fewshot");
        }
        b.option("episodes", episodes).option("ways", ways).option("shots", shots).option("queries", queries)
                .option("query-allocation", queryAllocation).option("steps", steps).option("base-classes", baseClasses);
        for (String kv : extraOptions) {
            b.option(name(kv, "--option expects name=value"), kv.substring(kv.indexOf('=') + 1));
        }
        for (String kv : select) {
            b.select(name(kv, "--select expects method.param=v1,v2,..."), kv.substring(kv.indexOf('=') + 1));
        }
        sets.forEach(b::set);
        return b.selectMetric(selectMetric).calibrate(calibrate).build();
    }

    /** The name before '=' in {@code name=value}. */
    private static String name(String kv, String expects) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new FsilException(expects + ", got '" + kv + "'");
        }
        return kv.substring(0, eq).trim();
    }
}

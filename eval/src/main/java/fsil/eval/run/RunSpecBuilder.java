package fsil.eval.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import fsil.api.FsilException;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one way a {@link RunSpec} is assembled: from a run file (JSON or YAML) or a run directory's
 * {@code spec.json}, checked field by field as it is read, with command-line flags laid over it, then
 * {@link #build()} once. A file is checked strictly: unknown fields, wrong types (a seed that is not an integer,
 * options that are not a mapping, ...) and duplicate keys are errors naming the file and the field, also for a field
 * that a flag then overrides.
 */
public final class RunSpecBuilder {
    private final String where;
    private String methods;
    private String datasets;
    private String protocol;
    private String backbone;
    private Long orderSeed;
    private Long trainSeed;
    private Long backboneSeed;
    private Integer threads;
    private final Map<String, List<String>> options = new LinkedHashMap<>();
    private final Map<String, List<String>> select = new LinkedHashMap<>();
    private String selectMetric;
    private String calibrate;
    private final List<String> sets = new ArrayList<>();

    /** An empty spec; {@code where} names its source in messages (e.g. "command line"). */
    public RunSpecBuilder(String where) {
        this.where = where;
    }

    /** The fields of a JSON or YAML run file (by extension) or a spec.json, checked. */
    public static RunSpecBuilder read(Path file) {
        return fromTree(readTree(file), file.toString());
    }

    /** Run-file fields, checked field by field; {@code where} names the file in messages. */
    public static RunSpecBuilder fromTree(ObjectNode root, String where) {
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!RunSpec.FIELDS.contains(f)) {
                throw new FsilException(where + ": unknown field '" + f + "'. Fields: methods, datasets, protocol, "
                        + "backbone, options, order_seed, train_seed, backbone_seed, threads, select, select_metric, calibrate");
            }
        }
        RunSpecBuilder b = new RunSpecBuilder(where);
        b.methods = names(root, "methods", where);
        b.datasets = names(root, "datasets", where);
        b.protocol = text(root, "protocol", where);
        b.backbone = text(root, "backbone", where);
        b.selectMetric = text(root, "select_metric", where);
        b.calibrate = text(root, "calibrate", where);
        b.options.putAll(mapping(root.get("options"), where, "options"));
        b.orderSeed = integer(root, "order_seed", Long.MIN_VALUE, Long.MAX_VALUE, where);
        b.trainSeed = integer(root, "train_seed", Long.MIN_VALUE, Long.MAX_VALUE, where);
        b.backboneSeed = integer(root, "backbone_seed", Long.MIN_VALUE, Long.MAX_VALUE, where);
        Long t = integer(root, "threads", 1, RunSpec.MAX_THREADS, where);
        b.threads = t == null ? null : t.intValue();
        b.select.putAll(mapping(root.get("select"), where, "select"));
        return b;
    }

    // --- what flags set (null leaves the field as it is) ----------------------------------------------------------

    /** Method variants, comma-separated ({@code ncm,rbf:ppca[q=0]}). */
    public RunSpecBuilder methods(String text) {
        methods = text != null ? text : methods;
        return this;
    }

    /** Dataset references, comma-separated. */
    public RunSpecBuilder datasets(String text) {
        datasets = text != null ? text : datasets;
        return this;
    }

    public RunSpecBuilder protocol(String id) {
        protocol = id != null ? id : protocol;
        return this;
    }

    public RunSpecBuilder backbone(String ref) {
        backbone = ref != null ? ref : backbone;
        return this;
    }

    public RunSpecBuilder orderSeed(Long seed) {
        orderSeed = seed != null ? seed : orderSeed;
        return this;
    }

    public RunSpecBuilder trainSeed(Long seed) {
        trainSeed = seed != null ? seed : trainSeed;
        return this;
    }

    public RunSpecBuilder backboneSeed(Long seed) {
        backboneSeed = seed != null ? seed : backboneSeed;
        return this;
    }

    public RunSpecBuilder threads(Integer n) {
        threads = n != null ? n : threads;
        return this;
    }

    /** A protocol option's values, comma-separated (several make one setting each); replaces the file's. */
    public RunSpecBuilder option(String name, String values) {
        return put(options, "options", name, values);
    }

    /** The candidate values of {@code method.param} for selection on validation classes, comma-separated. */
    public RunSpecBuilder select(String methodParam, String values) {
        return put(select, "select", methodParam, values);
    }

    public RunSpecBuilder selectMetric(String metric) {
        selectMetric = metric != null ? metric : selectMetric;
        return this;
    }

    public RunSpecBuilder calibrate(String how) {
        calibrate = how != null ? how : calibrate;
        return this;
    }

    /** {@code method.param=value}: the parameter for every variant of that method (or with that label). */
    public RunSpecBuilder set(String assignment) {
        int eq = assignment.indexOf('=');
        int dot = assignment.indexOf('.');
        if (eq < 0 || dot < 0 || dot > eq) {
            throw new FsilException("--set expects method.param=value, got '" + assignment + "'");
        }
        sets.add(assignment);
        return this;
    }

    public boolean hasProtocol() {
        return protocol != null;
    }

    /** The spec: required fields present, variants parsed, {@link #set} applied, every value checked. */
    public RunSpec build() {
        for (String f : new String[]{"methods", "datasets", "protocol"}) {
            if ((f.equals("methods") ? methods : f.equals("datasets") ? datasets : protocol) == null) {
                throw new FsilException(where + ": '" + f + "' is missing");
            }
        }
        List<VariantSpec> variants = new ArrayList<>(VariantSpec.parseList(methods));
        for (String s : sets) {
            int eq = s.indexOf('=');
            int dot = s.indexOf('.');
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
        try {
            return new RunSpec(variants, RunSpec.splitDatasets(datasets), backbone, protocol, options,
                    orderSeed != null ? orderSeed : RunSpec.DEFAULT_ORDER_SEED,
                    trainSeed != null ? trainSeed : RunSpec.DEFAULT_TRAIN_SEED,
                    backboneSeed != null ? backboneSeed : RunSpec.DEFAULT_BACKBONE_SEED,
                    threads != null ? threads : RunSpec.defaultThreads(), select, selectMetric, calibrate);
        } catch (FsilException e) {
            if (e.getMessage().startsWith("'select_metric'") || e.getMessage().startsWith("'calibrate'")) {
                throw new FsilException(where + ": " + e.getMessage());
            }
            throw e;
        }
    }

    private RunSpecBuilder put(Map<String, List<String>> into, String field, String name, String values) {
        if (values == null) {
            return this;
        }
        List<String> list = new ArrayList<>();
        for (String v : values.split(",")) {
            if (!v.isBlank()) {
                list.add(v.trim());
            }
        }
        if (list.isEmpty()) {
            throw new FsilException(where + ": '" + field + "." + name + "' has no value");
        }
        into.put(name, list);
        return this;
    }

    // --- the file format ------------------------------------------------------------------------------------------

    /** A run file's fields as a JSON tree (duplicate keys are errors). */
    static ObjectNode readTree(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        JsonFactory factory = name.endsWith(".yaml") || name.endsWith(".yml") ? new YAMLFactory() : new JsonFactory();
        factory.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        if (!Files.isRegularFile(file)) {
            throw new FsilException("run file " + file + (Files.exists(file) ? " is not a file" : " does not exist"));
        }
        JsonNode root;
        try {
            root = new ObjectMapper(factory).readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new FsilException("run file " + file + " is malformed: " + oneLine(e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new FsilException("cannot read run file " + file + ": " + e.getMessage(), e);
        }
        if (!(root instanceof ObjectNode o)) {
            throw new FsilException("run file " + file + " must hold a mapping with methods, datasets, protocol, ...");
        }
        return o;
    }

    /** A parser's message (YAML's span several lines, with a caret under the column) as one line. */
    static String oneLine(String message) {
        if (message == null) {
            return "unknown syntax error";
        }
        return String.join("; ", message.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.chars().allMatch(c -> c == '^')).toList());
    }

    /** A string, or a list of strings joined by commas; null when absent. */
    private static String names(ObjectNode root, String field, String where) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isTextual()) {
            return v.asText();
        }
        if (v.isArray()) {
            List<String> out = new ArrayList<>();
            for (JsonNode e : v) {
                if (!e.isTextual()) {
                    throw new FsilException(where + ": '" + field + "' must list names (text), got " + e);
                }
                out.add(e.asText());
            }
            return String.join(",", out);
        }
        throw new FsilException(where + ": '" + field + "' must be a name or a list of names, got " + v);
    }

    private static String text(ObjectNode root, String field, String where) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new FsilException(where + ": '" + field + "' must be text, got " + v);
        }
        return v.asText();
    }

    /** An integer field in [min, max], or null when absent. */
    private static Long integer(ObjectNode root, String field, long min, long max, String where) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        BigInteger b;
        if (v.isIntegralNumber()) {
            b = v.bigIntegerValue();
        } else if (v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0) {
            b = v.decimalValue().toBigIntegerExact();
        } else {
            throw new FsilException(where + ": '" + field + "' must be an integer, got " + v);
        }
        if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new FsilException(where + ": '" + field + "' must be an integer between " + min + " and " + max
                    + ", got " + v);
        }
        return b.longValue();
    }

    /** A mapping from names to a value or a list of values (text, numbers or booleans): options, select. */
    private static Map<String, List<String>> mapping(JsonNode v, String where, String field) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isObject()) {
            throw new FsilException(where + ": '" + field + "' must be a mapping of names to values, got " + v);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            List<String> values = new ArrayList<>();
            if (e.getValue().isArray()) {
                for (JsonNode x : e.getValue()) {
                    values.add(scalar(x, field + "." + e.getKey(), where));
                }
            } else {
                for (String s : scalar(e.getValue(), field + "." + e.getKey(), where).split(",")) {
                    values.add(s.trim());
                }
            }
            if (values.isEmpty()) {
                throw new FsilException(where + ": '" + field + "." + e.getKey() + "' has no value");
            }
            out.put(e.getKey(), values);
        }
        return out;
    }

    private static String scalar(JsonNode x, String field, String where) {
        if (x.isTextual() || x.isNumber() || x.isBoolean()) {
            return x.asText();
        }
        throw new FsilException(where + ": '" + field + "' must be a value or a list of values, got " + x);
    }
}

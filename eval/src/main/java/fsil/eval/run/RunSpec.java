package fsil.eval.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.Set;

/**
 * Everything that defines a run: methods x datasets x one protocol with its options (an option may list several
 * values; each combination is a setting), the seeds, the backbone. A run file (JSON or YAML) and a run
 * directory's {@code spec.json} have the same fields, checked strictly: unknown fields, wrong types (a seed that
 * is not an integer, options that are not a mapping, ...) and duplicate keys are errors naming the field.
 *
 * @param methods      method variants
 * @param datasets     dataset references
 * @param backbone     backbone spec (e.g. {@code identity}, {@code pretrained-mlp})
 * @param protocol     protocol name
 * @param options      protocol options; several values make several settings
 * @param orderSeed    seed of class orders and episode sampling (identical for all methods)
 * @param trainSeed    seed of the methods' own randomness
 * @param backboneSeed seed of the backbone training (features are cached per dataset, backbone, seed)
 * @param threads      units run in parallel (results do not depend on it)
 * @param select       parameters chosen on the validation classes before the run: {@code method.param} to the
 *                     candidate values (a grid when several are given for one method); empty: no selection
 * @param selectMetric what the selection maximises (or minimises, for a lower-is-better metric); null: episode_acc
 *                     for episodes, final_acc for incremental runs
 * @param calibrate    post-hoc calibration: {@code none} or {@code temperature} (one temperature per variant, dataset
 *                     and setting, fitted on held-out data; see {@link Calibration})
 */
public record RunSpec(List<VariantSpec> methods, List<String> datasets, String backbone, String protocol,
                      Map<String, List<String>> options, long orderSeed, long trainSeed, long backboneSeed,
                      int threads, Map<String, List<String>> select, String selectMetric, String calibrate) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static final long DEFAULT_ORDER_SEED = 1993;
    public static final long DEFAULT_TRAIN_SEED = 0;
    public static final long DEFAULT_BACKBONE_SEED = 1;
    public static final int MAX_THREADS = 4096;
    static final Set<String> FIELDS = Set.of("methods", "datasets", "backbone", "protocol", "options", "order_seed",
            "train_seed", "backbone_seed", "threads", "select", "select_metric", "calibrate");
    public static final List<String> CALIBRATIONS = List.of("none", "temperature");

    public RunSpec {
        methods = List.copyOf(methods);
        datasets = List.copyOf(datasets);
        Map<String, List<String>> o = new LinkedHashMap<>();
        options.forEach((k, v) -> o.put(k, List.copyOf(v)));
        options = o;
        Map<String, List<String>> sel = new LinkedHashMap<>();
        (select == null ? Map.<String, List<String>>of() : select).forEach((k, v) -> sel.put(k, List.copyOf(v)));
        select = sel;
        if (selectMetric != null && selectMetric.isBlank()) { // null is the default; an empty name is a mistake
            throw new FsilException("'select_metric' must name a metric, got '" + selectMetric + "'");
        }
        if (calibrate == null) {
            calibrate = "none";
        }
        if (!CALIBRATIONS.contains(calibrate)) {
            throw new FsilException("'calibrate' must be one of " + String.join(", ", CALIBRATIONS) + ", got '"
                    + calibrate + "'");
        }
        if (backbone == null || backbone.isBlank()) {
            backbone = "identity";
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new FsilException("threads must be between 1 and " + MAX_THREADS + ", got " + threads);
        }
    }

    /** A run without selection. */
    public RunSpec(List<VariantSpec> methods, List<String> datasets, String backbone, String protocol,
                   Map<String, List<String>> options, long orderSeed, long trainSeed, long backboneSeed, int threads) {
        this(methods, datasets, backbone, protocol, options, orderSeed, trainSeed, backboneSeed, threads, Map.of(),
                null, "none");
    }

    /** A run with selection and without calibration. */
    public RunSpec(List<VariantSpec> methods, List<String> datasets, String backbone, String protocol,
                   Map<String, List<String>> options, long orderSeed, long trainSeed, long backboneSeed, int threads,
                   Map<String, List<String>> select, String selectMetric) {
        this(methods, datasets, backbone, protocol, options, orderSeed, trainSeed, backboneSeed, threads, select,
                selectMetric, "none");
    }

    /** Whether the run is temperature-scaled. */
    public boolean temperatureScaled() {
        return calibrate.equals("temperature");
    }

    /** All cores. */
    public static int defaultThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    public RunSpec withThreads(int t) {
        return new RunSpec(methods, datasets, backbone, protocol, options, orderSeed, trainSeed, backboneSeed, t,
                select, selectMetric, calibrate);
    }

    /** The same run with other protocol options. */
    public RunSpec withOptions(Map<String, List<String>> o) {
        return new RunSpec(methods, datasets, backbone, protocol, o, orderSeed, trainSeed, backboneSeed, threads,
                select, selectMetric, calibrate);
    }

    /** The same run with other methods, options and no selection (what the selection itself runs). */
    public RunSpec withMethodsAndOptions(List<VariantSpec> m, Map<String, List<String>> o) {
        return new RunSpec(m, datasets, backbone, protocol, o, orderSeed, trainSeed, backboneSeed, threads);
    }

    // --- run files and spec.json ---------------------------------------------------------------------------------

    /** Reads a JSON or YAML run file (by extension) or a spec.json; all fields but methods, datasets, protocol optional. */
    public static RunSpec read(Path file) {
        return fromTree(readTree(file), file.toString());
    }

    /** A parser's message (YAML's span several lines, with a caret under the column) as one line. */
    static String oneLine(String message) {
        if (message == null) {
            return "unknown syntax error";
        }
        return String.join("; ", message.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.chars().allMatch(c -> c == '^')).toList());
    }

    /** A run file's fields as a JSON tree (duplicate keys are errors). */
    public static ObjectNode readTree(Path file) {
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

    /**
     * A spec from run-file fields, checked field by field.
     *
     * @param where the file (for messages)
     */
    public static RunSpec fromTree(ObjectNode root, String where) {
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new FsilException(where + ": unknown field '" + f + "'. Fields: methods, datasets, protocol, "
                        + "backbone, options, order_seed, train_seed, backbone_seed, threads, select, select_metric, calibrate");
            }
        }
        String methods = names(root, "methods", where, true);
        String datasets = names(root, "datasets", where, true);
        String protocol = text(root, "protocol", where, true);
        String backbone = text(root, "backbone", where, false);
        String selectMetric = text(root, "select_metric", where, false);
        String calibrate = text(root, "calibrate", where, false);
        try {
            return new RunSpec(VariantSpec.parseList(methods), splitDatasets(datasets), backbone, protocol,
                    options(root.get("options"), where), integer(root, "order_seed", DEFAULT_ORDER_SEED, where),
                    integer(root, "train_seed", DEFAULT_TRAIN_SEED, where),
                    integer(root, "backbone_seed", DEFAULT_BACKBONE_SEED, where),
                    threads(root, where), options(root.get("select"), where, "select"), selectMetric, calibrate);
        } catch (FsilException e) {
            if (e.getMessage().startsWith("'select_metric'") || e.getMessage().startsWith("'calibrate'")) {
                throw new FsilException(where + ": " + e.getMessage());
            }
            throw e;
        }
    }

    /**
     * The {@code threads} field of run-file fields (all cores when absent), checked; also where a flag overrides it,
     * so that an invalid value in a file is never hidden.
     */
    public static int threads(ObjectNode root, String where) {
        return (int) integer(root, "threads", defaultThreads(), 1, MAX_THREADS, where);
    }

    /** The spec as run-file fields (what spec.json holds; {@link #fromTree} reads it back). */
    public ObjectNode toTree() {
        ObjectNode o = new ObjectMapper().createObjectNode();
        ArrayNode m = o.putArray("methods");
        methods.forEach(v -> m.add(v.text()));
        ArrayNode d = o.putArray("datasets");
        datasets.forEach(d::add);
        o.put("protocol", protocol);
        o.put("backbone", backbone);
        ObjectNode opts = o.putObject("options");
        options.forEach((k, v) -> {
            ArrayNode a = opts.putArray(k);
            v.forEach(a::add);
        });
        o.put("order_seed", orderSeed);
        o.put("train_seed", trainSeed);
        o.put("backbone_seed", backboneSeed);
        o.put("threads", threads);
        if (!select.isEmpty()) {
            ObjectNode sel = o.putObject("select");
            select.forEach((k, v) -> {
                ArrayNode a = sel.putArray(k);
                v.forEach(a::add);
            });
        }
        if (selectMetric != null) {
            o.put("select_metric", selectMetric);
        }
        if (!calibrate.equals("none")) {
            o.put("calibrate", calibrate);
        }
        return o;
    }

    /** spec.json text. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(toTree());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A string, or a list of strings joined by commas. */
    private static String names(ObjectNode root, String field, String where, boolean required) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new FsilException(where + ": '" + field + "' is missing");
            }
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

    private static String text(ObjectNode root, String field, String where, boolean required) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new FsilException(where + ": '" + field + "' is missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new FsilException(where + ": '" + field + "' must be text, got " + v);
        }
        return v.asText();
    }

    private static long integer(ObjectNode root, String field, long dflt, String where) {
        return integer(root, field, dflt, Long.MIN_VALUE, Long.MAX_VALUE, where);
    }

    private static long integer(ObjectNode root, String field, long dflt, long min, long max, String where) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return dflt;
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

    /** options: a mapping from option names to a value or a list of values (text, numbers or booleans). */
    static Map<String, List<String>> options(JsonNode v, String where) {
        return options(v, where, "options");
    }

    /** A mapping from names to a value or a list of values ({@code options}, {@code select}). */
    static Map<String, List<String>> options(JsonNode v, String where, String field) {
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

    /**
     * Splits a dataset list at commas, except commas inside a parameterised name:
     * {@code synthetic:classes=40,dim=64,digits} is [synthetic:classes=40,dim=64, digits].
     */
    public static List<String> splitDatasets(String text) {
        List<String> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            boolean continuation = p.contains("=") && !p.contains(":") && !out.isEmpty()
                    && out.get(out.size() - 1).contains(":");
            if (continuation) {
                out.set(out.size() - 1, out.get(out.size() - 1) + "," + p);
            } else {
                out.add(p);
            }
        }
        if (out.isEmpty()) {
            throw new FsilException("no dataset given: use e.g. --datasets digits");
        }
        return out;
    }
}

package fsil.eval.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.api.FsilException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything that defines a run: methods x datasets x one protocol with its options (an option may list several
 * values; each combination is a setting), the seeds, the backbone. A run file (JSON or YAML) and a run
 * directory's {@code spec.json} have the same fields ({@link #toTree}); {@link RunSpecBuilder} reads them, lays
 * flags over them and builds the spec.
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
        return RunSpecBuilder.read(file).build();
    }

    /**
     * A spec from run-file fields, checked field by field.
     *
     * @param where the file (for messages)
     */
    public static RunSpec fromTree(ObjectNode root, String where) {
        return RunSpecBuilder.fromTree(root, where).build();
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

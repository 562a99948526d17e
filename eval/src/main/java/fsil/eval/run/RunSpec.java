package fsil.eval.run;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that defines a run: methods x datasets x one protocol with its options (an option may list several
 * values; each combination is a setting), the seeds, the backbone. Written to the run directory as
 * {@code spec.json}; a run file (JSON or YAML) has the same fields.
 *
 * @param methods      method variants
 * @param datasets     dataset names
 * @param backbone     backbone spec (e.g. {@code identity}, {@code pretrained-mlp})
 * @param protocol     protocol name
 * @param options      protocol options; several values make several settings
 * @param orderSeed    seed of class orders and episode sampling (identical for all methods)
 * @param trainSeed    seed of the methods' own randomness
 * @param backboneSeed seed of the backbone training (features are cached per dataset, backbone, seed)
 * @param threads      units run in parallel (results do not depend on it)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunSpec(List<VariantSpec> methods, List<String> datasets, String backbone, String protocol,
                      Map<String, List<String>> options, long orderSeed, long trainSeed, long backboneSeed,
                      int threads) {

    public static final long DEFAULT_ORDER_SEED = 1993;

    public RunSpec {
        methods = List.copyOf(methods);
        datasets = List.copyOf(datasets);
        Map<String, List<String>> o = new LinkedHashMap<>();
        options.forEach((k, v) -> o.put(k, List.copyOf(v)));
        options = o;
        if (backbone == null || backbone.isBlank()) {
            backbone = "identity";
        }
        if (threads < 1) {
            threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        }
    }

    public RunSpec withThreads(int t) {
        return new RunSpec(methods, datasets, backbone, protocol, options, orderSeed, trainSeed, backboneSeed, t);
    }
}

package fsil.eval.run;

import fsil.data.FeatureSet;

import java.nio.file.Path;

/** Where a run gets its features: the built-in datasets, or anything a test or notebook supplies. */
@FunctionalInterface
public interface FeatureSource {

    /**
     * @param dataset  dataset name (e.g. {@code digits})
     * @param backbone backbone spec (e.g. {@code identity})
     * @param seed     backbone seed
     * @param cacheDir cache directory for generated data and features
     */
    FeatureSet load(String dataset, String backbone, long seed, Path cacheDir);

    /**
     * Checks a dataset and a backbone reference without loading anything: unknown ids, parameters and values throw
     * a one-line {@link fsil.api.FsilException} with the valid choices. A run calls it for every dataset before it
     * loads the first one. The default accepts everything (a source that knows no references).
     */
    default void check(String dataset, String backbone) {
    }
}

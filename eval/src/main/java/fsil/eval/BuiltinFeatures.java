package fsil.eval;

import fsil.eval.data.BackboneSpec;
import fsil.eval.data.Datasets;
import fsil.eval.data.FeatureSet;
import fsil.eval.run.FeatureSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The built-in datasets and backbones of {@code fsil.eval.data}. Feature sets are kept in memory per
 * (dataset, backbone, seed, cache) for the life of the process, so a notebook or a run with several protocols
 * loads each only once (on disk they are cached by the data layer).
 */
final class BuiltinFeatures implements FeatureSource {
    private static final Map<String, FeatureSet> LOADED = new ConcurrentHashMap<>();

    @Override
    public FeatureSet load(String dataset, String backbone, long seed, Path cacheDir) {
        BackboneSpec spec = BackboneSpec.parse(backbone);
        String key = dataset + "|" + spec + "|" + seed + "|" + cacheDir.toAbsolutePath();
        FeatureSet fs = LOADED.get(key);
        if (fs == null) {
            fs = Datasets.load(dataset, spec, seed, cacheDir);
            LOADED.put(key, fs);
        }
        return fs;
    }
}

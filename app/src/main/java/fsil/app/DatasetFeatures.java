package fsil.app;

import fsil.api.Registry;
import fsil.data.Backbone;
import fsil.data.Backbones;
import fsil.data.Dataset;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.eval.run.FeatureSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Features from the dataset plugins through their backbones. Feature sets are kept in memory per (dataset,
 * backbone, seed, cache) for the life of the process, so a notebook or a run with several protocols loads each
 * only once (on disk they are cached by the data layer).
 */
final class DatasetFeatures implements FeatureSource {
    private static final Map<String, FeatureSet> LOADED = new ConcurrentHashMap<>();
    private final Registry<Dataset> datasets;
    private final Registry<Backbone> backbones;

    DatasetFeatures(Registry<Dataset> datasets, Registry<Backbone> backbones) {
        this.datasets = datasets;
        this.backbones = backbones;
    }

    @Override
    public void check(String dataset, String backbone) {
        Datasets.resolve(datasets, dataset);
        Backbones.resolve(backbones, backbone);
    }

    @Override
    public FeatureSet load(String dataset, String backbone, long seed, Path cacheDir) {
        Backbones.Configured spec = Backbones.resolve(backbones, backbone);
        String key = dataset + "|" + spec + "|" + seed + "|" + cacheDir.toAbsolutePath();
        FeatureSet fs = LOADED.get(key);
        if (fs == null) {
            fs = Datasets.load(datasets, dataset, spec, seed, cacheDir);
            LOADED.put(key, fs);
        }
        return fs;
    }
}

package fsil.eval;

import fsil.api.FsilException;
import fsil.eval.data.FeatureSet;
import fsil.eval.run.FeatureSource;

import java.nio.file.Path;

/** The built-in datasets and backbones of {@code fsil.eval.data}. */
final class BuiltinFeatures implements FeatureSource {
    @Override
    public FeatureSet load(String dataset, String backbone, long seed, Path cacheDir) {
        throw new FsilException("built-in datasets are not wired yet");
    }
}

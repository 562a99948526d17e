package fsil.data;

import fsil.api.FsilException;
import fsil.data.BackboneSpec;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;

import java.nio.file.Path;

/** Applies a frozen backbone to a raw dataset. */
public final class Backbones {

    private Backbones() {
    }

    /**
     * The dataset seen through {@code spec}.
     *
     * @param seed     backbone training seed (ignored by {@code identity})
     * @param cacheDir where trained-backbone features are cached
     */
    public static FeatureSet apply(RawDataset raw, BackboneSpec spec, long seed, Path cacheDir) {
        return switch (spec.kind()) {
            case BackboneSpec.IDENTITY -> identity(raw);
            case BackboneSpec.PRETRAINED_MLP -> PretrainedMlpBackbone.apply(raw, spec, seed, cacheDir);
            default -> throw new FsilException("unknown backbone " + spec.kind());
        };
    }

    /** The raw inputs as features. */
    public static FeatureSet identity(RawDataset raw) {
        return new FeatureSet(raw.name(), BackboneSpec.IDENTITY, raw.name() + "|" + BackboneSpec.IDENTITY,
                raw.classes(), raw.train(), raw.test(), raw.splits());
    }
}

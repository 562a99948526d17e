package fsil.data;

import fsil.api.Params;

import java.nio.file.Path;

/** The {@code identity} backbone: the raw inputs (pixels in [0, 1], or the user's features) are the features. */
public final class IdentityBackbone implements Backbone {
    public static final String ID = "identity";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "the raw inputs (pixels in [0, 1], or the user's features) are the features";
    }

    @Override
    public FeatureSet apply(RawDataset raw, Params params, long seed, Path cacheDir) {
        return of(raw);
    }

    /** The raw inputs as features. */
    public static FeatureSet of(RawDataset raw) {
        return new FeatureSet(raw.name(), ID, raw.name() + "|" + ID, raw.classes(), raw.train(), raw.test(),
                raw.splits());
    }
}

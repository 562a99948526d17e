package fsil.data;

import fsil.api.AbstractPlugin;
import fsil.api.Params;

import java.nio.file.Path;
import java.util.List;

/** The {@code identity} backbone: the raw inputs (pixels in [0, 1], or the user's features) are the features. */
public final class IdentityBackbone extends AbstractPlugin implements Backbone {
    public static final String ID = "identity";

    public IdentityBackbone() {
        super(ID, "the raw inputs (pixels in [0, 1], or the user's features) are the features", List.of());
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

package fsil.backbones.djl;

import fsil.api.Params;

/** {@code conv4}: the Conv-4 of the few-shot literature (see {@link Networks}), trained with PyTorch via DJL. */
public final class Conv4Backbone extends ConvBackbone {
    public static final String ID = "conv4";

    public Conv4Backbone() {
        super(ID, "Conv-4 (4 x conv3x3-64, batch norm, ReLU, max pool) trained on the base classes with PyTorch via DJL",
                10, Optimiser.ADAM, 1e-3, 5e-4, false);
    }

    @Override
    protected Architecture architecture(Params params) {
        return new Architecture(Architecture.Kind.CONV4, 1.0);
    }
}

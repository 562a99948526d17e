package fsil.backbones.djl;

import fsil.api.Params;

/** {@code resnet18}: ResNet-18 with the small-image stem (see {@link Networks}), trained with PyTorch via DJL. */
public final class ResNet18Backbone extends ConvBackbone {
    public static final String ID = "resnet18";

    public ResNet18Backbone() {
        super(ID, "ResNet-18 with a small-image stem (3x3 conv stride 1, no max pool; widths 64-512 x width) trained on"
                        + " the base classes with PyTorch via DJL",
                10, Optimiser.SGD, 0.05, 5e-4, true);
    }

    @Override
    protected Architecture architecture(Params params) {
        return new Architecture(Architecture.Kind.RESNET18, width(params));
    }
}

package fsil.backbones.djl;

import fsil.api.Params;

/** {@code resnet12}: the few-shot ResNet-12 (see {@link Networks}), trained with PyTorch via DJL. */
public final class ResNet12Backbone extends ConvBackbone {
    public static final String ID = "resnet12";

    public ResNet12Backbone() {
        super(ID, "few-shot ResNet-12 (widths 64-160-320-640 x width, global average pooling) trained on the base"
                        + " classes with PyTorch via DJL",
                10, Optimiser.SGD, 0.05, 5e-4, true);
    }

    @Override
    protected Architecture architecture(Params params) {
        return new Architecture(Architecture.Kind.RESNET12, width(params));
    }
}

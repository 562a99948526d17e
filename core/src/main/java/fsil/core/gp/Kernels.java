package fsil.core.gp;

import fsil.api.InvalidParameterException;

import java.util.List;

/** Creates kernels by their command-line names. */
public final class Kernels {
    /** Names accepted by {@link #create}: {@code rbf}, {@code matern52}, {@code linear} (alias {@code cosine}). */
    public static final List<String> NAMES = List.of(RbfKernel.NAME, Matern52Kernel.NAME, CosineKernel.NAME);

    private Kernels() {
    }

    /**
     * A kernel on L2-normalised inputs.
     *
     * @param lengthscale ignored by the linear (cosine) kernel, which has none
     * @throws InvalidParameterException for an unknown name or a non-positive outputscale/lengthscale
     */
    public static NormalisedKernel create(String name, double outputscale, double lengthscale) {
        switch (name) {
            case RbfKernel.NAME:
                return new RbfKernel(outputscale, lengthscale);
            case Matern52Kernel.NAME:
                return new Matern52Kernel(outputscale, lengthscale);
            case CosineKernel.NAME:
            case "cosine":
                return new CosineKernel(outputscale);
            default:
                throw new InvalidParameterException("unknown kernel '" + name + "'; choose one of " + NAMES
                        + " (or 'cosine' for 'linear')");
        }
    }
}

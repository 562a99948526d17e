package fsil.core.gp;

/** The kernels on L2-normalised inputs that methods offer as a parameter (e.g. {@code kernel=matern52}). */
public enum KernelFamily {
    RBF, MATERN52,
    /** The linear kernel on normalised inputs, i.e. a scaled cosine similarity. */
    LINEAR;

    /**
     * A kernel of this family.
     *
     * @param lengthscale ignored by the linear kernel, which has none
     * @throws fsil.api.InvalidParameterException for a non-positive outputscale or lengthscale
     */
    public NormalisedKernel create(double outputscale, double lengthscale) {
        return switch (this) {
            case RBF -> new RbfKernel(outputscale, lengthscale);
            case MATERN52 -> new Matern52Kernel(outputscale, lengthscale);
            case LINEAR -> new CosineKernel(outputscale);
        };
    }
}

package fsil.core.gp;

/**
 * Linear kernel on L2-normalised inputs, i.e. the scaled cosine similarity k(x, x') = s u.u' (GP-Tree's
 * "linear" kernel with gpytorch's variance fixed to 1, and the logistic-softmax GP's cosine kernel, CDKT's cossim).
 * Its only hyperparameter is the log outputscale: a lengthscale would enter as s/l^2 and is not identifiable
 * separately from s, so it is deliberately left out. The kernel is positive semi-definite with rank at most d.
 */
public final class CosineKernel extends NormalisedKernel {
    public static final String NAME = "linear";

    public CosineKernel(double outputscale) {
        super(new String[]{"log_outputscale"}, new double[]{outputscale});
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected void valuesFromCosines(double[] c, int len) {
        double s = outputscale();
        for (int i = 0; i < len; i++) {
            c[i] *= s;
        }
    }

    @Override
    protected void backwardCosines(double[] c, double[] g, int len, double[] dHyper) {
        double s = outputscale();
        double dLogS = 0;
        for (int i = 0; i < len; i++) {
            dLogS += g[i] * s * c[i];
            g[i] *= s;
        }
        dHyper[0] += dLogS;
    }

    @Override
    public CosineKernel copy() {
        return new CosineKernel(outputscale());
    }
}

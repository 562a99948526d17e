package fsil.core.gp;

/**
 * Squared-exponential kernel on L2-normalised inputs: k(x, x') = s exp(-||u - u'||^2 / (2 l^2))
 * = s exp(-(1 - c) / l^2) with u = x/||x|| and c = u.u' (GP-Tree's default kernel, RBFKernel).
 * Hyperparameters: log outputscale s, log lengthscale l.
 */
public final class RbfKernel extends NormalisedKernel {
    public static final String NAME = "rbf";

    public RbfKernel(double outputscale, double lengthscale) {
        super(new String[]{"log_outputscale", "log_lengthscale"}, new double[]{outputscale, lengthscale});
    }

    @Override
    public String name() {
        return NAME;
    }

    public double lengthscale() {
        return Math.exp(logParams[1]);
    }

    @Override
    protected void valuesFromCosines(double[] c, int len) {
        double s = outputscale();
        double invL2 = Math.exp(-2.0 * logParams[1]);
        for (int i = 0; i < len; i++) {
            c[i] = s * Math.exp((c[i] - 1.0) * invL2);
        }
    }

    @Override
    protected void backwardCosines(double[] c, double[] g, int len, double[] dHyper) {
        double s = outputscale();
        double invL2 = Math.exp(-2.0 * logParams[1]);
        double dLogS = 0;
        double dLogL = 0;
        for (int i = 0; i < len; i++) {
            double oneMinusC = 1.0 - c[i];
            double gk = g[i] * s * Math.exp(-oneMinusC * invL2); // g * k
            dLogS += gk;
            dLogL += gk * 2.0 * oneMinusC * invL2;
            g[i] = gk * invL2;
        }
        dHyper[0] += dLogS;
        dHyper[1] += dLogL;
    }

    @Override
    public RbfKernel copy() {
        return new RbfKernel(outputscale(), lengthscale());
    }
}

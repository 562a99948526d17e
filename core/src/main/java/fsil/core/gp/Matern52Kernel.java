package fsil.core.gp;

/**
 * Matern kernel with smoothness 5/2 on L2-normalised inputs: k = s (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r),
 * r = ||u - u'|| / l = sqrt(max(0, 2 - 2c)) / l. Its derivative with respect to the cosine,
 * dk/dc = (5/3) s (1 + sqrt5 r) exp(-sqrt5 r) / l^2, is finite at r = 0, so coincident inputs are harmless.
 * Hyperparameters: log outputscale s, log lengthscale l.
 *
 * <p>GP-Tree's code never sets the Matern lengthscale, which then stays at gpytorch's initial ln 2 ~ 0.693
 * (its kernel_class.py sets only the RBF lengthscale); here the lengthscale is whatever the caller passes.
 */
public final class Matern52Kernel extends NormalisedKernel {
    public static final String NAME = "matern52";
    private static final double SQRT5 = Math.sqrt(5.0);

    public Matern52Kernel(double outputscale, double lengthscale) {
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
        double invL = Math.exp(-logParams[1]);
        for (int i = 0; i < len; i++) {
            double r = Math.sqrt(Math.max(0.0, 2.0 - 2.0 * c[i])) * invL;
            double sr = SQRT5 * r;
            c[i] = s * (1.0 + sr + sr * sr / 3.0) * Math.exp(-sr);
        }
    }

    @Override
    protected void backwardCosines(double[] c, double[] g, int len, double[] dHyper) {
        double s = outputscale();
        double invL = Math.exp(-logParams[1]);
        double invL2 = invL * invL;
        double dLogS = 0;
        double dLogL = 0;
        for (int i = 0; i < len; i++) {
            double r = Math.sqrt(Math.max(0.0, 2.0 - 2.0 * c[i])) * invL;
            double sr = SQRT5 * r;
            double e = Math.exp(-sr);
            double gi = g[i];
            double k = s * (1.0 + sr + sr * sr / 3.0) * e;
            double a = (5.0 / 3.0) * s * (1.0 + sr) * e; // dk/dc = a / l^2, dk/dlog l = a r^2
            dLogS += gi * k;
            dLogL += gi * a * r * r;
            g[i] = gi * a * invL2;
        }
        dHyper[0] += dLogS;
        dHyper[1] += dLogL;
    }

    @Override
    public Matern52Kernel copy() {
        return new Matern52Kernel(outputscale(), lengthscale());
    }
}

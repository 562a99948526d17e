package fsil.core.quad;

import fsil.core.math.Stable;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleUnaryOperator;

/**
 * n-point Gauss-Hermite quadrature for Gaussian expectations E[g(f)], f ~ N(mean, variance).
 *
 * <p>Nodes and weights of the rule int e^{-x^2} g(x) dx ~ sum_i w_i g(x_i) are computed by Golub-Welsch
 * (Golub and Welsch 1969: the nodes are the eigenvalues of the symmetric tridiagonal Jacobi matrix of the Hermite
 * recurrence, off-diagonal sqrt(k/2), found with EJML's symmetric eigen-solver), then polished by Newton steps on
 * the orthonormal Hermite polynomial p_n (p_n' = sqrt(2n) p_{n-1}); the weights are the Christoffel numbers
 * w_i = 1 / sum_{k &lt; n} p_k(x_i)^2, which keep full relative precision even for the tiny tail weights.
 * The rule is exact for polynomials g of degree &lt;= 2n - 1.
 *
 * <p>Expectations use the change of variables f = mean + sqrt(2 variance) x, so
 * E[g(f)] ~ (1/sqrt(pi)) sum_i w_i g(mean + sqrt(2 variance) x_i). GP-Tree's predictive uses 20 points (the
 * gpytorch default), which is {@link #DEFAULT_POINTS}. Instances are immutable and thread-safe.
 */
public final class GaussHermite {
    /** The number of points GP-Tree's predictive uses (gpytorch's num_gauss_hermite_locs). */
    public static final int DEFAULT_POINTS = 20;
    /** Largest supported rule: beyond it the Christoffel sums approach the double range. */
    public static final int MAX_POINTS = 300;

    private static final ConcurrentHashMap<Integer, GaussHermite> CACHE = new ConcurrentHashMap<>();
    private static final double SQRT_PI = Math.sqrt(Math.PI);
    private static final double PI_MINUS_QUARTER = Math.pow(Math.PI, -0.25);

    private final double[] nodes;
    private final double[] weights;
    /** Standard-normal form: E[g(z)], z ~ N(0,1), ~ sum_i pw_i g(pz_i) with pz = sqrt(2) x, pw = w / sqrt(pi). */
    private final double[] normalNodes;
    private final double[] normalWeights;

    private GaussHermite(int n) {
        double[][] nw = compute(n);
        this.nodes = nw[0];
        this.weights = nw[1];
        this.normalNodes = new double[n];
        this.normalWeights = new double[n];
        for (int i = 0; i < n; i++) {
            normalNodes[i] = Math.sqrt(2.0) * nodes[i];
            normalWeights[i] = weights[i] / SQRT_PI;
        }
    }

    /** The {@link #DEFAULT_POINTS}-point rule. */
    public static GaussHermite standard() {
        return of(DEFAULT_POINTS);
    }

    /** The n-point rule (1 &lt;= n &lt;= {@link #MAX_POINTS}), computed once and cached. */
    public static GaussHermite of(int n) {
        if (n < 1 || n > MAX_POINTS) {
            throw new IllegalArgumentException("Gauss-Hermite rule needs 1 <= n <= " + MAX_POINTS + " points, got " + n);
        }
        return CACHE.computeIfAbsent(n, GaussHermite::new);
    }

    /** Number of points n. */
    public int size() {
        return nodes.length;
    }

    /** Nodes x_i of int e^{-x^2} g(x) dx (physicists' convention), ascending; a copy. */
    public double[] nodes() {
        return nodes.clone();
    }

    /** Weights w_i of int e^{-x^2} g(x) dx, summing to sqrt(pi); a copy. */
    public double[] weights() {
        return weights.clone();
    }

    /**
     * E[g(f)] for f ~ N(mean, variance).
     *
     * @throws IllegalArgumentException if the variance is negative or not finite (clamp round-off before calling)
     */
    public double expectation(DoubleUnaryOperator g, double mean, double variance) {
        double sd = sd(variance);
        double s = 0;
        for (int i = 0; i < normalNodes.length; i++) {
            s += normalWeights[i] * g.applyAsDouble(mean + sd * normalNodes[i]);
        }
        return s;
    }

    /** E[sigmoid(f)] for f ~ N(mean, variance): the binary GP classifier's predictive probability. */
    public double expectedSigmoid(double mean, double variance) {
        double sd = sd(variance);
        double s = 0;
        for (int i = 0; i < normalNodes.length; i++) {
            s += normalWeights[i] * Stable.sigmoid(mean + sd * normalNodes[i]);
        }
        return s;
    }

    /** out[j] = E[sigmoid(f_j)], f_j ~ N(mean[j], variance[j]); out may alias mean or variance. */
    public void expectedSigmoid(double[] mean, double[] variance, double[] out) {
        if (mean.length != variance.length || out.length != mean.length) {
            throw new IllegalArgumentException("mean, variance and out must have the same length, got "
                    + mean.length + ", " + variance.length + ", " + out.length);
        }
        for (int j = 0; j < mean.length; j++) {
            out[j] = expectedSigmoid(mean[j], variance[j]);
        }
    }

    /** E[log sigmoid(f)] for f ~ N(mean, variance) (expected log-likelihood of a logistic model). */
    public double expectedLogSigmoid(double mean, double variance) {
        double sd = sd(variance);
        double s = 0;
        for (int i = 0; i < normalNodes.length; i++) {
            s += normalWeights[i] * Stable.logSigmoid(mean + sd * normalNodes[i]);
        }
        return s;
    }

    private static double sd(double variance) {
        if (!(variance >= 0) || Double.isInfinite(variance)) {
            throw new IllegalArgumentException("variance must be finite and >= 0, got " + variance);
        }
        return Math.sqrt(variance);
    }

    private static double[][] compute(int n) {
        double[] x = new double[n];
        if (n > 1) {
            // Golub-Welsch: eigenvalues of the Jacobi matrix J (zero diagonal, J[k-1][k] = sqrt(k/2))
            DMatrixRMaj jac = new DMatrixRMaj(n, n);
            for (int k = 1; k < n; k++) {
                double b = Math.sqrt(k / 2.0);
                jac.set(k - 1, k, b);
                jac.set(k, k - 1, b);
            }
            EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, false, true);
            if (!eig.decompose(jac)) {
                throw new IllegalStateException("eigen-decomposition of the " + n + "-point Hermite Jacobi matrix failed");
            }
            for (int i = 0; i < n; i++) {
                x[i] = eig.getEigenvalue(i).real;
            }
            Arrays.sort(x);
            // exact symmetry of the rule
            for (int i = 0; i < n / 2; i++) {
                double m = 0.5 * (x[n - 1 - i] - x[i]);
                x[i] = -m;
                x[n - 1 - i] = m;
            }
            if (n % 2 == 1) {
                x[n / 2] = 0.0;
            }
        }
        double[] w = new double[n];
        double[] p = new double[2];
        for (int i = 0; i < n; i++) {
            // Newton polishing: p_n(x) = 0 with p_n'(x) = sqrt(2n) p_{n-1}(x)
            for (int it = 0; it < 3 && x[i] != 0.0; it++) {
                hermite(n, x[i], p);
                double step = p[1] / (Math.sqrt(2.0 * n) * p[0]);
                x[i] -= step;
                if (Math.abs(step) <= 1e-16 * Math.abs(x[i])) {
                    break;
                }
            }
            w[i] = 1.0 / christoffelSum(n, x[i]);
        }
        // symmetric weights
        for (int i = 0; i < n / 2; i++) {
            double m = 0.5 * (w[i] + w[n - 1 - i]);
            w[i] = m;
            w[n - 1 - i] = m;
        }
        return new double[][]{x, w};
    }

    /** Orthonormal Hermite polynomials (weight e^{-x^2}): out[0] = p_{n-1}(x), out[1] = p_n(x). */
    private static void hermite(int n, double x, double[] out) {
        double pPrev = 0.0;
        double p = PI_MINUS_QUARTER;
        for (int k = 0; k < n; k++) {
            // p_{k+1} = sqrt(2/(k+1)) x p_k - sqrt(k/(k+1)) p_{k-1}
            double next = Math.sqrt(2.0 / (k + 1)) * x * p - Math.sqrt(k / (k + 1.0)) * pPrev;
            pPrev = p;
            p = next;
        }
        out[0] = pPrev;
        out[1] = p;
    }

    /** sum_{k=0}^{n-1} p_k(x)^2. */
    private static double christoffelSum(int n, double x) {
        double pPrev = 0.0;
        double p = PI_MINUS_QUARTER;
        double s = p * p;
        for (int k = 0; k < n - 1; k++) {
            double next = Math.sqrt(2.0 / (k + 1)) * x * p - Math.sqrt(k / (k + 1.0)) * pPrev;
            pPrev = p;
            p = next;
            s += p * p;
        }
        return s;
    }
}

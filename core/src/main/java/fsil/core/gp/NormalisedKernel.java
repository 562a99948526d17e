package fsil.core.gp;

import fsil.api.InvalidDataException;
import fsil.api.InvalidParameterException;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Base of the kernels that act on L2-normalised inputs, u = x / ||x||, as GP-Tree and the logistic-softmax GP
 * do. The normalisation is part of the forward pass, so the backward pass differentiates through it:
 * dL/dx = (g - u (u.g)) / ||x|| for g = dL/du.
 *
 * <p>On unit vectors every stationary kernel is a function of the cosine c = u.u' (||u - u'||^2 = 2 - 2c), so
 * subclasses only define k = phi(c) and its derivatives; the n1 x n2 cosines come from one matrix product. On the
 * diagonal of K(x, x) the cosine is set to exactly 1 (its true value), which makes diag K = outputscale exactly.
 *
 * <p>Hyperparameters: log outputscale first, then the kernel's own (log lengthscale).
 */
public abstract class NormalisedKernel implements Kernel {
    /** Rows whose norm is below this are rejected: their direction is numerically meaningless. */
    static final double MIN_NORM = 1e-150;

    private final String[] names;
    /** Log hyperparameters; index 0 is log outputscale. */
    protected final double[] logParams;

    protected NormalisedKernel(String[] names, double[] values) {
        this.names = names.clone();
        this.logParams = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] > 0) || Double.isInfinite(values[i])) {
                throw new InvalidParameterException(name() + " kernel: " + names[i].replace("log_", "")
                        + " must be positive and finite, got " + values[i]);
            }
            logParams[i] = Math.log(values[i]);
        }
    }

    @Override
    public final String[] hyperparameterNames() {
        return names.clone();
    }

    @Override
    public final double[] hyperparameters() {
        return logParams.clone();
    }

    @Override
    public final void setHyperparameters(double[] logValues) {
        if (logValues.length != logParams.length) {
            throw new IllegalArgumentException(name() + " kernel has " + logParams.length
                    + " hyperparameters, got " + logValues.length);
        }
        for (int i = 0; i < logValues.length; i++) {
            if (!Double.isFinite(logValues[i])) {
                throw new IllegalArgumentException(name() + " kernel: " + names[i] + " must be finite, got " + logValues[i]);
            }
        }
        System.arraycopy(logValues, 0, logParams, 0, logValues.length);
    }

    /** The outputscale s = exp(log s) (the kernel's value at identical directions). */
    public final double outputscale() {
        return Math.exp(logParams[0]);
    }

    /** In place: c[i] := k(c[i]) for i &lt; len (outputscale included). */
    protected abstract void valuesFromCosines(double[] c, int len);

    /**
     * Backward through k(c): on entry g holds dL/dK; on exit dL/dc (in place). Adds dL/d(log hyperparameter)
     * sum_i g_i dk_i/dlog(theta) into dHyper.
     */
    protected abstract void backwardCosines(double[] c, double[] g, int len, double[] dHyper);

    @Override
    public DMatrixRMaj matrix(DMatrixRMaj x1, DMatrixRMaj x2) {
        if (x1 == x2) {
            return matrix(x1);
        }
        checkCols(x1, x2);
        DMatrixRMaj c = cosines(normalise(x1, null), normalise(x2, null));
        valuesFromCosines(c.data, c.getNumElements());
        return c;
    }

    @Override
    public DMatrixRMaj matrix(DMatrixRMaj x) {
        DMatrixRMaj c = symmetricCosines(normalise(x, null));
        valuesFromCosines(c.data, c.getNumElements());
        return c;
    }

    @Override
    public double[] diag(DMatrixRMaj x) {
        normalise(x, null); // validates the rows
        double[] d = new double[x.numRows];
        java.util.Arrays.fill(d, 1.0);
        valuesFromCosines(d, d.length);
        return d;
    }

    @Override
    public KernelGradients backward(DMatrixRMaj x1, DMatrixRMaj x2, DMatrixRMaj dLdK) {
        checkCols(x1, x2);
        checkShape(dLdK, x1.numRows, x2.numRows);
        double[] n1 = new double[x1.numRows];
        double[] n2 = new double[x2.numRows];
        DMatrixRMaj u1 = normalise(x1, n1);
        DMatrixRMaj u2 = normalise(x2, n2);
        DMatrixRMaj c = x1 == x2 ? symmetricCosines(u1) : cosines(u1, u2);
        DMatrixRMaj g = dLdK.copy();
        double[] dHyper = new double[logParams.length];
        backwardCosines(c.data, g.data, g.getNumElements(), dHyper);
        DMatrixRMaj du1 = new DMatrixRMaj(x1.numRows, x1.numCols);
        DMatrixRMaj du2 = new DMatrixRMaj(x2.numRows, x2.numCols);
        CommonOps_DDRM.mult(g, u2, du1);
        CommonOps_DDRM.multTransA(g, u1, du2);
        return new KernelGradients(throughNormalisation(du1, u1, n1), throughNormalisation(du2, u2, n2), dHyper);
    }

    @Override
    public SymmetricKernelGradients backward(DMatrixRMaj x, DMatrixRMaj dLdK) {
        checkShape(dLdK, x.numRows, x.numRows);
        int n = x.numRows;
        double[] norms = new double[n];
        DMatrixRMaj u = normalise(x, norms);
        DMatrixRMaj c = symmetricCosines(u);
        DMatrixRMaj g = dLdK.copy();
        double[] dHyper = new double[logParams.length];
        backwardCosines(c.data, g.data, g.getNumElements(), dHyper);
        // the diagonal cosines are the constant 1; both slots vary together: dL/du = (G + G^T) u
        for (int i = 0; i < n; i++) {
            g.data[i * n + i] = 0.0;
            for (int j = 0; j < i; j++) {
                double s = g.data[i * n + j] + g.data[j * n + i];
                g.data[i * n + j] = s;
                g.data[j * n + i] = s;
            }
        }
        DMatrixRMaj du = new DMatrixRMaj(n, x.numCols);
        CommonOps_DDRM.mult(g, u, du);
        return new SymmetricKernelGradients(throughNormalisation(du, u, norms), dHyper);
    }

    @Override
    public double[] backwardDiag(DMatrixRMaj x, double[] dLdDiag) {
        if (dLdDiag.length != x.numRows) {
            throw new IllegalArgumentException("dL/ddiag has length " + dLdDiag.length + ", x has " + x.numRows + " rows");
        }
        normalise(x, null);
        double[] c = new double[x.numRows];
        java.util.Arrays.fill(c, 1.0);
        double[] g = dLdDiag.clone();
        double[] dHyper = new double[logParams.length];
        backwardCosines(c, g, c.length, dHyper);
        return dHyper;
    }

    /** Rows of x scaled to unit length; norms (if not null) receives ||x_i||. */
    final DMatrixRMaj normalise(DMatrixRMaj x, double[] norms) {
        int n = x.numRows;
        int d = x.numCols;
        DMatrixRMaj u = new DMatrixRMaj(n, d);
        double[] xs = x.data;
        double[] us = u.data;
        for (int i = 0; i < n; i++) {
            int r = i * d;
            double s = 0;
            for (int j = 0; j < d; j++) {
                s += xs[r + j] * xs[r + j];
            }
            double norm = Math.sqrt(s);
            if (!(norm >= MIN_NORM) || Double.isInfinite(norm)) {
                if (Double.isInfinite(s) && isFiniteRow(xs, r, d)) {
                    norm = scaledNorm(xs, r, d);
                } else {
                    throw new InvalidDataException(name() + " kernel normalises inputs to unit length, but row " + i
                            + " has norm " + norm + (Double.isNaN(norm) || Double.isInfinite(norm)
                            ? " (non-finite values)" : " (a zero vector has no direction)")
                            + "; remove or fix that input");
                }
            }
            double inv = 1.0 / norm;
            for (int j = 0; j < d; j++) {
                us[r + j] = xs[r + j] * inv;
            }
            if (norms != null) {
                norms[i] = norm;
            }
        }
        return u;
    }

    private static boolean isFiniteRow(double[] xs, int r, int d) {
        for (int j = 0; j < d; j++) {
            if (!Double.isFinite(xs[r + j])) {
                return false;
            }
        }
        return true;
    }

    /** Norm of a finite row whose squares overflow. */
    private static double scaledNorm(double[] xs, int r, int d) {
        double m = 0;
        for (int j = 0; j < d; j++) {
            m = Math.max(m, Math.abs(xs[r + j]));
        }
        double s = 0;
        for (int j = 0; j < d; j++) {
            double v = xs[r + j] / m;
            s += v * v;
        }
        return m * Math.sqrt(s);
    }

    private static DMatrixRMaj cosines(DMatrixRMaj u1, DMatrixRMaj u2) {
        DMatrixRMaj c = new DMatrixRMaj(u1.numRows, u2.numRows);
        CommonOps_DDRM.multTransB(u1, u2, c);
        return c;
    }

    private static DMatrixRMaj symmetricCosines(DMatrixRMaj u) {
        int n = u.numRows;
        DMatrixRMaj c = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(u, u, c);
        for (int i = 0; i < n; i++) {
            c.data[i * n + i] = 1.0;
            for (int j = 0; j < i; j++) {
                c.data[j * n + i] = c.data[i * n + j];
            }
        }
        return c;
    }

    /** dL/dx_i = (g_i - u_i (u_i . g_i)) / ||x_i||, in place on g. */
    private static DMatrixRMaj throughNormalisation(DMatrixRMaj g, DMatrixRMaj u, double[] norms) {
        int n = g.numRows;
        int d = g.numCols;
        for (int i = 0; i < n; i++) {
            int r = i * d;
            double dot = 0;
            for (int j = 0; j < d; j++) {
                dot += u.data[r + j] * g.data[r + j];
            }
            double inv = 1.0 / norms[i];
            for (int j = 0; j < d; j++) {
                g.data[r + j] = (g.data[r + j] - u.data[r + j] * dot) * inv;
            }
        }
        return g;
    }

    private static void checkCols(DMatrixRMaj x1, DMatrixRMaj x2) {
        if (x1.numCols != x2.numCols) {
            throw new IllegalArgumentException("inputs must have the same dimension, got " + x1.numCols
                    + " and " + x2.numCols + " columns");
        }
    }

    private static void checkShape(DMatrixRMaj g, int rows, int cols) {
        if (g.numRows != rows || g.numCols != cols) {
            throw new IllegalArgumentException("dL/dK must be " + rows + " x " + cols + ", got "
                    + g.numRows + " x " + g.numCols);
        }
    }
}

package fsil.methods.bavardage;

import fsil.api.FsilException;
import fsil.api.LabeledData;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;

/**
 * Everything BAVARDAGE needs from the base classes, computed once per (base data, preprocessing) and shared by
 * all tasks: the mean of all base features and a factorisation of the within-class scatter S_w. A task never
 * touches the base data again, and no D x D decomposition happens per task.
 *
 * <ul>
 *   <li>{@link Preprocessing#CODE}: the lower Cholesky factor L of the code's S_w (S_w = L L^T). Per task, the
 *   restricted precision U^T S_w^-1 U = (L^-1 U)^T (L^-1 U) needs one triangular solve with the task's
 *   N-column span basis U; no inverse is formed.</li>
 *   <li>{@link Preprocessing#PAPER}: the eigendecomposition S_w = R diag(lambda) R^T of Eq. 6's pooled
 *   covariance (eigenvalues in descending order), from which Eq. 7's sphering T = S R^T is built.</li>
 * </ul>
 */
public final class BaseStatistics {
    /** Bounded jitter escalation for the Cholesky factorisation (relative to the mean diagonal). */
    private static final int MAX_JITTER_TRIES = 6;

    private final Preprocessing kind;
    private final int dimension;
    private final double[] mean;
    private final double[] cholesky;
    private final double[] eigenvectors;
    private final double[] eigenvalues;

    private BaseStatistics(Preprocessing kind, int dimension, double[] mean, double[] cholesky, double[] eigenvectors,
                           double[] eigenvalues) {
        this.kind = kind;
        this.dimension = dimension;
        this.mean = mean;
        this.cholesky = cholesky;
        this.eigenvectors = eigenvectors;
        this.eigenvalues = eigenvalues;
    }

    /**
     * Computes the statistics from labelled base features.
     *
     * @throws FsilException when the base set is empty (BAVARDAGE needs base classes)
     */
    public static BaseStatistics fromBase(LabeledData base, Preprocessing kind) {
        if (base.isEmpty()) {
            throw new FsilException("BAVARDAGE needs base classes: it centres features on the base mean and whitens "
                    + "them with the base within-class scatter, but the background data is empty. Use a protocol "
                    + "or split that provides base classes.");
        }
        base.requireFinite("base features");
        int n = base.size();
        int d = base.dimension();
        float[] raw = base.features().rawData();
        double[] mean = FeatureNormalisation.mean(raw, n, d);
        double[] x = new double[n * d];
        FeatureNormalisation.centreAndNormalise(raw, 0, n, d, mean, x, 0);
        return switch (kind) {
            case CODE -> code(mean, WithinClassScatter.code(x, n, d, base.labels()));
            case PAPER -> paper(mean, WithinClassScatter.pooled(x, n, d, base.labels()));
        };
    }

    /** Code-style statistics from a given scatter matrix (factorised with Cholesky, bounded jitter). */
    static BaseStatistics code(double[] mean, DMatrixRMaj sw) {
        int d = sw.numRows;
        DMatrixRMaj a = sw.copy();
        double meanDiag = CommonOps_DDRM.trace(sw) / Math.max(d, 1);
        double jitter = 0;
        for (int attempt = 0; attempt <= MAX_JITTER_TRIES; attempt++) {
            CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
            if (chol.decompose(a)) {
                DMatrixRMaj l = chol.getT(null);
                return new BaseStatistics(Preprocessing.CODE, d, mean.clone(), l.data, null, null);
            }
            a = sw.copy();
            jitter = jitter == 0 ? Math.max(meanDiag, Double.MIN_NORMAL) * 1e-10 : jitter * 100;
            for (int j = 0; j < d; j++) {
                a.add(j, j, jitter);
            }
        }
        throw new FsilException("the base within-class scatter (" + d + " x " + d + ", mean diagonal " + meanDiag
                + ") is not positive definite even with jitter " + jitter + "; check the base features for "
                + "duplicated or constant columns");
    }

    /** Paper-style statistics from a given scatter matrix (symmetric eigendecomposition, descending order). */
    static BaseStatistics paper(double[] mean, DMatrixRMaj sw) {
        int d = sw.numRows;
        SymmetricEigen e = SymmetricEigen.of(sw);
        return new BaseStatistics(Preprocessing.PAPER, d, mean.clone(), null, e.vectors(), e.values());
    }

    public Preprocessing kind() {
        return kind;
    }

    public int dimension() {
        return dimension;
    }

    /** The mean of all base features (read-only by contract). */
    double[] mean() {
        return mean;
    }

    /** Row-major lower Cholesky factor of S_w ({@link Preprocessing#CODE} only). */
    double[] cholesky() {
        return cholesky;
    }

    /** Row-major D x D matrix whose columns are the eigenvectors of S_w ({@link Preprocessing#PAPER} only). */
    double[] eigenvectors() {
        return eigenvectors;
    }

    /** Eigenvalues of S_w in descending order ({@link Preprocessing#PAPER} only). */
    double[] eigenvalues() {
        return eigenvalues;
    }

    /** Approximate bytes held. */
    public long memoryBytes() {
        long b = 8L * mean.length;
        b += cholesky == null ? 0 : 8L * cholesky.length;
        b += eigenvectors == null ? 0 : 8L * eigenvectors.length + 8L * eigenvalues.length;
        return b;
    }
}

package fsil.methods.ppca;

/**
 * The finalised PPCA model of one class (paper Sec. III-E): mean mu, the top q_c covariance eigenpairs (rows l_i of
 * L, eigenvalues d_i) and Sigma = L^T D L + lambda I. Immutable; O(q_c d + d) doubles.
 *
 * <p>Score of a query x with r = x - mu and projections p_i = l_i . r (Theorem 1, Eq. 10):
 * <pre>
 *   r(x) = (||r||^2 - sum_i d_i/(d_i + lambda) p_i^2) / lambda
 *        = (||r||^2 - sum_i p_i^2) / lambda + sum_i p_i^2 / (d_i + lambda)
 * </pre>
 * The second line is the same number written as the squared residual off the subspace (clamped at 0 against
 * rounding) over lambda plus the in-subspace part; it is what {@link #scoreBlock} computes. The log-likelihood
 * variant adds log|Sigma| = (d - q_c) log lambda + sum_i log(d_i + lambda) (Eq. 11), giving -2 log N(x | mu, Sigma)
 * without the (2 pi)^(d/2) constant (Eq. 6).
 */
final class ClassModel {
    final int dim;
    final long count;
    final double[] mean;
    /** q_c, the number of kept components. */
    final int rank;
    /** q_c x d row-major, orthonormal rows. */
    final double[] basis;
    /** Covariance eigenvalues d_i (decreasing). */
    final double[] variances;
    /** 1 / (d_i + lambda). */
    final double[] inverseVariances;
    final double lambda;
    /** log|Sigma| (Eq. 11). */
    final double logDet;
    /** How the eigenpairs were computed (diagnostics). */
    final TopEigen.Pairs eigen;

    private ClassModel(int dim, long count, double[] mean, TopEigen.Pairs eigen, double lambda) {
        this.dim = dim;
        this.count = count;
        this.mean = mean;
        this.eigen = eigen;
        this.rank = eigen.count();
        this.basis = eigen.vectors();
        this.variances = eigen.values();
        this.lambda = lambda;
        this.inverseVariances = new double[rank];
        double ld = (dim - rank) * Math.log(lambda);
        for (int i = 0; i < rank; i++) {
            inverseVariances[i] = 1.0 / (variances[i] + lambda);
            ld += Math.log(variances[i] + lambda);
        }
        this.logDet = ld;
    }

    /**
     * Fits the model to a class's moments: q_c = min(q, n - 1, d) components of the covariance M2 / (n - ddof)
     * (fewer when the covariance has numerically zero eigenvalues).
     */
    static ClassModel fit(ClassStatistics s, int q, double lambda, double ddof, PpcaMethod.Solver solver, long seed) {
        long n = s.count();
        int k = (int) Math.min(Math.min(q, n - 1), s.dimension());
        TopEigen.Pairs pairs = TopEigen.solve(s.covariance(ddof), k, lambda, solver, seed);
        return new ClassModel(s.dimension(), n, s.mean(), pairs, lambda);
    }

    /** A model from given parts (tests, benchmarks): eigenpairs already computed. */
    static ClassModel of(long count, double[] mean, TopEigen.Pairs pairs, double lambda) {
        return new ClassModel(mean.length, count, mean.clone(), pairs, lambda);
    }

    /**
     * Scores {@code rows} queries (row-major doubles in {@code x}) against this class and writes score i to
     * {@code out[outOffset + i * outStride]}. Queries are taken two at a time and basis rows four at a time, so every
     * load of a basis entry feeds two multiply-adds and every residual entry four.
     *
     * @param residual a buffer of at least 2 d doubles
     * @param logLik   add log|Sigma| (Eq. 6) instead of the plain Mahalanobis score (Eq. 7)
     */
    void scoreBlock(double[] x, int rows, double[] residual, boolean logLik, double[] out, int outOffset,
                    int outStride) {
        int i = 0;
        for (; i + 2 <= rows; i += 2) {
            scorePair(x, i, residual, logLik, out, outOffset, outStride);
        }
        if (i < rows) {
            scoreOne(x, i, residual, logLik, out, outOffset, outStride);
        }
    }

    private void scorePair(double[] x, int i, double[] res, boolean logLik, double[] out, int outOffset,
                           int outStride) {
        final int d = dim;
        final double[] mu = mean;
        final double[] l = basis;
        final double[] iv = inverseVariances;
        int xa = i * d;
        int xb = xa + d;
        double normA = 0;
        double normB = 0;
        for (int t = 0; t < d; t++) {
            double va = x[xa + t] - mu[t];
            double vb = x[xb + t] - mu[t];
            res[t] = va;
            res[d + t] = vb;
            normA += va * va;
            normB += vb * vb;
        }
        double inA = 0;
        double inB = 0;
        double wA = 0;
        double wB = 0;
        int j = 0;
        for (; j + 4 <= rank; j += 4) {
            int o0 = j * d;
            int o1 = o0 + d;
            int o2 = o1 + d;
            int o3 = o2 + d;
            double a0 = 0;
            double a1 = 0;
            double a2 = 0;
            double a3 = 0;
            double b0 = 0;
            double b1 = 0;
            double b2 = 0;
            double b3 = 0;
            for (int t = 0; t < d; t++) {
                double ra = res[t];
                double rb = res[d + t];
                double l0 = l[o0 + t];
                double l1 = l[o1 + t];
                double l2 = l[o2 + t];
                double l3 = l[o3 + t];
                a0 += ra * l0;
                b0 += rb * l0;
                a1 += ra * l1;
                b1 += rb * l1;
                a2 += ra * l2;
                b2 += rb * l2;
                a3 += ra * l3;
                b3 += rb * l3;
            }
            inA += a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3;
            inB += b0 * b0 + b1 * b1 + b2 * b2 + b3 * b3;
            wA += a0 * a0 * iv[j] + a1 * a1 * iv[j + 1] + a2 * a2 * iv[j + 2] + a3 * a3 * iv[j + 3];
            wB += b0 * b0 * iv[j] + b1 * b1 * iv[j + 1] + b2 * b2 * iv[j + 2] + b3 * b3 * iv[j + 3];
        }
        for (; j < rank; j++) {
            int o = j * d;
            double a = 0;
            double b = 0;
            for (int t = 0; t < d; t++) {
                a += res[t] * l[o + t];
                b += res[d + t] * l[o + t];
            }
            inA += a * a;
            inB += b * b;
            wA += a * a * iv[j];
            wB += b * b * iv[j];
        }
        double add = logLik ? logDet : 0.0;
        out[outOffset + i * outStride] = Math.max(0.0, normA - inA) / lambda + wA + add;
        out[outOffset + (i + 1) * outStride] = Math.max(0.0, normB - inB) / lambda + wB + add;
    }

    /** One query, with exactly the operations (and rounding) {@link #scorePair} applies to each of its two. */
    private void scoreOne(double[] x, int i, double[] res, boolean logLik, double[] out, int outOffset,
                          int outStride) {
        final int d = dim;
        final double[] iv = inverseVariances;
        int xo = i * d;
        double norm = 0;
        for (int t = 0; t < d; t++) {
            double v = x[xo + t] - mean[t];
            res[t] = v;
            norm += v * v;
        }
        double in = 0;
        double w = 0;
        int j = 0;
        for (; j + 4 <= rank; j += 4) {
            double a0 = TopEigen.dot(res, 0, basis, j * d, d);
            double a1 = TopEigen.dot(res, 0, basis, (j + 1) * d, d);
            double a2 = TopEigen.dot(res, 0, basis, (j + 2) * d, d);
            double a3 = TopEigen.dot(res, 0, basis, (j + 3) * d, d);
            in += a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3;
            w += a0 * a0 * iv[j] + a1 * a1 * iv[j + 1] + a2 * a2 * iv[j + 2] + a3 * a3 * iv[j + 3];
        }
        for (; j < rank; j++) {
            double a = TopEigen.dot(res, 0, basis, j * d, d);
            in += a * a;
            w += a * a * iv[j];
        }
        out[outOffset + i * outStride] = Math.max(0.0, norm - in) / lambda + w + (logLik ? logDet : 0.0);
    }

    /** The score of one query in the literal form of Eq. (10) (tests). */
    double scoreEq10(double[] x) {
        double norm2 = 0;
        double[] r = new double[dim];
        for (int t = 0; t < dim; t++) {
            r[t] = x[t] - mean[t];
            norm2 += r[t] * r[t];
        }
        double u2 = 0;
        for (int j = 0; j < rank; j++) {
            double p = TopEigen.dot(r, 0, basis, j * dim, dim);
            double u = Math.sqrt(variances[j] / (variances[j] + lambda)) * p;
            u2 += u * u;
        }
        return norm2 / lambda - u2 / lambda;
    }

    /**
     * Sigma = L^T D L + lambda I as an explicit d x d matrix: only for the tests and the explicit reference scorers of
     * PpcaScoreBench in the benchmarks module (the method never forms it).
     */
    org.ejml.data.DMatrixRMaj explicitCovariance() {
        int d = dim;
        org.ejml.data.DMatrixRMaj s = new org.ejml.data.DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            s.data[i * d + i] = lambda;
        }
        for (int j = 0; j < rank; j++) {
            for (int a = 0; a < d; a++) {
                double la = variances[j] * basis[j * d + a];
                for (int b = 0; b < d; b++) {
                    s.data[a * d + b] += la * basis[j * d + b];
                }
            }
        }
        return s;
    }

    /** Bytes of the arrays this model keeps. */
    long memoryBytes() {
        return 8L * (dim + (long) rank * dim + 2L * rank) + 96;
    }
}

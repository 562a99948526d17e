package fsil.methods.ppca;

import fsil.core.concurrent.Parallel;

import java.util.concurrent.Executor;

/**
 * Batched scoring of queries against many class models: the n x K score matrix is cut into tiles of
 * {@link #QUERY_BATCH} queries by {@link #CLASS_BLOCK} classes, run in parallel on the session's executor. Each
 * tile converts its queries to float64 once and calls {@link ClassModel#scoreBlock} per class (R = X - mu, P = R L^T,
 * never a d x d matrix); a tile writes only its own cells, so the scores do not depend on the thread count.
 */
final class Scorer {
    static final int QUERY_BATCH = 64;
    static final int CLASS_BLOCK = 256;

    private Scorer() {
    }

    /**
     * Scores of every query against every model.
     *
     * @param x      row-major float32 queries, n x d
     * @param logLik add log|Sigma_k| (Eq. 6)
     * @return row-major n x K scores (smaller is better)
     */
    static double[] scores(ClassModel[] models, float[] x, int n, int d, boolean logLik, Executor executor) {
        int k = models.length;
        double[] out = new double[n * k];
        int queryBatches = (n + QUERY_BATCH - 1) / QUERY_BATCH;
        int classBlocks = (k + CLASS_BLOCK - 1) / CLASS_BLOCK;
        int tiles = queryBatches * classBlocks;
        if (tiles == 0) {
            return out;
        }
        Parallel.forEach(executor, tiles, tile -> {
            int qb = tile / classBlocks;
            int cb = tile % classBlocks;
            int q0 = qb * QUERY_BATCH;
            int rows = Math.min(n, q0 + QUERY_BATCH) - q0;
            int c0 = cb * CLASS_BLOCK;
            int c1 = Math.min(k, c0 + CLASS_BLOCK);
            double[] xb = new double[rows * d];
            int src = q0 * d;
            for (int i = 0; i < xb.length; i++) {
                xb[i] = x[src + i];
            }
            double[] residual = new double[2 * d];
            for (int c = c0; c < c1; c++) {
                models[c].scoreBlock(xb, rows, residual, logLik, out, q0 * k + c, k);
            }
        });
        return out;
    }
}

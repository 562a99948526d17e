package fsil.core.nn;

import fsil.api.FeatureMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * A trainable map g from features to embeddings: the identity, an {@link Mlp} g(x) = mlp(x), or the residual
 * g(x) = x + mlp(x) (same input and output size). Embedding is batched and row-independent: a row's embedding does
 * not depend on the other rows or the batch size. Training goes through {@link #forward} and {@link #backward},
 * which chain dL/dg(x) into the MLP's parameter gradients (the identity part of a residual map has no parameters).
 */
public final class FeatureMap {
    private static final int BATCH = 256;
    private final Mlp mlp;
    private final boolean residual;
    private final int inputDim;

    private FeatureMap(Mlp mlp, boolean residual, int inputDim) {
        if (residual && mlp.inputSize() != mlp.outputSize()) {
            throw new IllegalArgumentException("a residual map needs equal input and output sizes, got "
                    + mlp.inputSize() + " and " + mlp.outputSize());
        }
        this.mlp = mlp;
        this.residual = residual;
        this.inputDim = inputDim;
    }

    /** g(x) = x. */
    public static FeatureMap identity(int dim) {
        return new FeatureMap(null, false, dim);
    }

    /** g(x) = mlp(x). */
    public static FeatureMap of(Mlp mlp) {
        return new FeatureMap(mlp, false, mlp.inputSize());
    }

    /** g(x) = x + mlp(x). */
    public static FeatureMap residual(Mlp mlp) {
        return new FeatureMap(mlp, true, mlp.inputSize());
    }

    public boolean isIdentity() {
        return mlp == null;
    }

    public boolean isResidual() {
        return residual;
    }

    /** The trainable part, or null for the identity. */
    public Mlp mlp() {
        return mlp;
    }

    public int inputDim() {
        return inputDim;
    }

    public int outputDim() {
        return mlp == null ? inputDim : mlp.outputSize();
    }

    /** Number of trainable parameters. */
    public long parameterCount() {
        return mlp == null ? 0 : mlp.parameters().count();
    }

    /** g(x) for every row, float64 (the identity takes rows of any width). */
    public DMatrixRMaj embed(FeatureMatrix x) {
        if (mlp == null) {
            return fsil.core.linalg.Matrices.fromFeatures(x);
        }
        return embed(x.rawData(), x.rows());
    }

    /** g(x) for the first {@code n} rows of a row-major float matrix. */
    public DMatrixRMaj embed(float[] x, int n) {
        int e = outputDim();
        DMatrixRMaj out = new DMatrixRMaj(n, e);
        if (mlp == null) {
            for (int i = 0; i < n * inputDim; i++) {
                out.data[i] = x[i];
            }
            return out;
        }
        Mlp.Batch b = mlp.newBatch(Math.min(BATCH, Math.max(n, 1)));
        for (int from = 0; from < n; from += BATCH) {
            int to = Math.min(n, from + BATCH);
            b.setInput(x, null, from, to);
            mlp.forward(b);
            System.arraycopy(b.output(), 0, out.data, from * e, (to - from) * e);
        }
        if (residual) {
            for (int i = 0; i < n * e; i++) {
                out.data[i] += x[i];
            }
        }
        return out;
    }

    /**
     * Training forward pass: g(x) of {@code x}'s rows {@code rows[from..to)} (all rows in order when rows is
     * null), through {@code batch} (from {@code mlp().newBatch}), kept for {@link #backward}. Not for the identity.
     */
    public DMatrixRMaj forward(Mlp.Batch batch, float[] x, int[] rows, int from, int to) {
        batch.setInput(x, rows, from, to);
        mlp.forward(batch);
        int n = to - from;
        int e = outputDim();
        DMatrixRMaj z = new DMatrixRMaj(n, e);
        System.arraycopy(batch.output(), 0, z.data, 0, n * e);
        if (residual) {
            for (int i = 0; i < n; i++) {
                int src = (rows == null ? from + i : rows[from + i]) * inputDim;
                for (int j = 0; j < e; j++) {
                    z.data[i * e + j] += x[src + j];
                }
            }
        }
        return z;
    }

    /** Adds dL/d(parameters) to the MLP's gradients, given dL/dg(x) of the batch's last {@link #forward}. */
    public void backward(Mlp.Batch batch, DMatrixRMaj dLdZ) {
        System.arraycopy(dLdZ.data, 0, batch.outputGradient(), 0, dLdZ.numRows * dLdZ.numCols);
        mlp.backward(batch, false);
    }

    /** A map of the same kind with a copy of this one's weights (later training of either leaves the other). */
    public FeatureMap copy() {
        if (mlp == null) {
            return this;
        }
        Mlp m = new Mlp(mlp.sizes(), mlp.reluOnOutput(), 0);
        copyWeights(mlp, m);
        return new FeatureMap(m, residual, inputDim);
    }

    /** Copies the weights of {@code source} into {@code target} (same layer sizes). */
    public static void copyWeights(Mlp source, Mlp target) {
        for (int l = 0; l < source.layers().size(); l++) {
            Dense s = source.layers().get(l);
            Dense t = target.layers().get(l);
            System.arraycopy(s.weights(), 0, t.weights(), 0, s.weights().length);
            System.arraycopy(s.bias(), 0, t.bias(), 0, s.bias().length);
        }
    }
}

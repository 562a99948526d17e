package fsil.methods.gptree;

import fsil.api.FeatureMatrix;
import fsil.core.nn.Mlp;
import org.ejml.data.DMatrixRMaj;

/**
 * What the kernels see: the backbone features themselves, or g_theta(x) for a deep kernel (a core {@link Mlp}
 * with a linear output layer, trained in the base session and frozen afterwards).
 */
final class FeatureMap {
    private final Mlp mlp;
    private final int inputDim;

    private FeatureMap(Mlp mlp, int inputDim) {
        this.mlp = mlp;
        this.inputDim = inputDim;
    }

    static FeatureMap identity(int dim) {
        return new FeatureMap(null, dim);
    }

    static FeatureMap of(Mlp mlp) {
        return new FeatureMap(mlp, mlp.inputSize());
    }

    boolean isIdentity() {
        return mlp == null;
    }

    Mlp mlp() {
        return mlp;
    }

    int outputDim() {
        return mlp == null ? inputDim : mlp.outputSize();
    }

    /** Embeddings of all rows, float64. */
    DMatrixRMaj embed(FeatureMatrix x) {
        return embed(x.rawData(), x.rows());
    }

    DMatrixRMaj embed(float[] x, int n) {
        if (mlp == null) {
            DMatrixRMaj out = new DMatrixRMaj(n, inputDim);
            for (int i = 0; i < n * inputDim; i++) {
                out.data[i] = x[i];
            }
            return out;
        }
        int e = mlp.outputSize();
        DMatrixRMaj out = new DMatrixRMaj(n, e);
        int bs = 256;
        Mlp.Batch b = mlp.newBatch(Math.min(bs, Math.max(n, 1)));
        for (int from = 0; from < n; from += bs) {
            int to = Math.min(n, from + bs);
            b.setInput(x, null, from, to);
            mlp.forward(b);
            System.arraycopy(b.output(), 0, out.data, from * e, (to - from) * e);
        }
        return out;
    }

    long memoryBytes() {
        return mlp == null ? 0 : 8L * mlp.parameters().count();
    }
}

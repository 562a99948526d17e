package fsil.methods.lsgp;

import fsil.api.FeatureMatrix;
import fsil.core.gp.CosineKernel;
import fsil.core.linalg.Matrices;
import fsil.core.nn.Dense;
import fsil.core.nn.Mlp;
import org.ejml.data.DMatrixRMaj;

/**
 * The deep kernel k(x, x') = s cos(g(x), g(x')): a feature map g (a core {@link Mlp} on the backbone features,
 * g(x) = mlp(x), or the residual g(x) = x + mlp(x), or the identity) and a cosine kernel with outputscale s, shared by all classes. Immutable once built: sessions of
 * many threads embed their points concurrently (every call allocates its own activation buffers).
 */
final class DeepKernel {
    private final Mlp map;
    private final boolean residual;
    private final double logOutputscale;

    /**
     * @param map      the trained feature map, or null for the identity
     * @param residual g(x) = x + map(x) instead of map(x)
     */
    DeepKernel(Mlp map, boolean residual, double logOutputscale) {
        this.map = map;
        this.residual = residual;
        this.logOutputscale = logOutputscale;
    }

    boolean residual() {
        return residual;
    }

    boolean hasMap() {
        return map != null;
    }

    Mlp map() {
        return map;
    }

    double outputscale() {
        return Math.exp(logOutputscale);
    }

    double logOutputscale() {
        return logOutputscale;
    }

    /** A fresh kernel object (cheap) with this outputscale. */
    CosineKernel kernel() {
        return new CosineKernel(outputscale());
    }

    /** g(x) for all rows, float64. */
    DMatrixRMaj embed(FeatureMatrix x) {
        if (map == null) {
            return Matrices.fromFeatures(x);
        }
        int n = x.rows();
        DMatrixRMaj out = new DMatrixRMaj(n, map.outputSize());
        if (n == 0) {
            return out;
        }
        Mlp.Batch b = map.newBatch(n);
        b.setInput(x.rawData(), null, 0, n);
        map.forward(b);
        System.arraycopy(b.output(), 0, out.data, 0, n * map.outputSize());
        if (residual) {
            float[] xs = x.rawData();
            for (int i = 0; i < out.data.length; i++) {
                out.data[i] += xs[i];
            }
        }
        return out;
    }

    /** Parameter count (for memory accounting). */
    long parameterCount() {
        return map == null ? 1 : map.parameters().count() + 1;
    }

    /** Copies the weights of {@code source} (same layer sizes) into {@code target}. */
    static void copyWeights(Mlp source, Mlp target) {
        for (int l = 0; l < source.layers().size(); l++) {
            Dense s = source.layers().get(l);
            Dense t = target.layers().get(l);
            System.arraycopy(s.weights(), 0, t.weights(), 0, s.weights().length);
            System.arraycopy(s.bias(), 0, t.bias(), 0, s.bias().length);
        }
    }
}

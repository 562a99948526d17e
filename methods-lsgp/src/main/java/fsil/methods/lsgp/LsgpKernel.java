package fsil.methods.lsgp;

import fsil.api.FeatureMatrix;
import fsil.core.gp.CosineKernel;
import fsil.core.gp.DeepKernel;
import fsil.core.nn.FeatureMap;
import org.ejml.data.DMatrixRMaj;

/**
 * LS-GP's kernel k(x, x') = s cos(g(x), g(x')): core's {@link DeepKernel} of a feature map g (identity, mlp or
 * residual x + mlp(x)) and a cosine kernel, with the trained log outputscale kept as trained (the cosine kernel
 * stores log(exp(log s)), which the model cache must not round-trip through). Immutable once built: sessions of
 * many threads embed their points concurrently.
 */
final class LsgpKernel {
    private final DeepKernel deep;
    private final double logOutputscale;

    LsgpKernel(FeatureMap map, double logOutputscale) {
        this.deep = new DeepKernel(map, new CosineKernel(Math.exp(logOutputscale)));
        this.logOutputscale = logOutputscale;
    }

    /** The identity map (the backbone's own cosine kernel). */
    static LsgpKernel fixed(double outputscale) {
        return new LsgpKernel(FeatureMap.identity(0), Math.log(outputscale));
    }

    FeatureMap map() {
        return deep.map();
    }

    boolean hasMap() {
        return !deep.map().isIdentity();
    }

    double outputscale() {
        return Math.exp(logOutputscale);
    }

    double logOutputscale() {
        return logOutputscale;
    }

    /** The cosine kernel on the embeddings (stateless: safe to share). */
    CosineKernel kernel() {
        return (CosineKernel) deep.kernel();
    }

    /** g(x) for all rows, float64. */
    DMatrixRMaj embed(FeatureMatrix x) {
        return deep.embed(x);
    }

    /** Parameter count (for memory accounting): the map's and the outputscale. */
    long parameterCount() {
        return deep.parameterCount();
    }
}

package fsil.core.gp;

import fsil.api.FeatureMatrix;
import fsil.core.nn.FeatureMap;
import org.ejml.data.DMatrixRMaj;

/**
 * A deep kernel k(g(x), g(x')): a base kernel on the embeddings of a {@link FeatureMap}, composed as GPyTorch
 * composes a feature extractor with a kernel. The backward pass is chained: the kernel's backward gives
 * dL/dg(x) (and dL/d(its hyperparameters)); {@link FeatureMap#backward} takes dL/dg(x) into the map's parameters.
 * Immutable when its map is not being trained: threads may embed and evaluate concurrently.
 *
 * @param map    g
 * @param kernel the base kernel on g's outputs
 */
public record DeepKernel(FeatureMap map, NormalisedKernel kernel) {

    public DMatrixRMaj embed(FeatureMatrix x) {
        return map.embed(x);
    }

    /** K(g(a), g(b)). */
    public DMatrixRMaj matrix(FeatureMatrix a, FeatureMatrix b) {
        return kernel.matrix(map.embed(a), map.embed(b));
    }

    /** K(g(x), g(x)). */
    public DMatrixRMaj matrix(FeatureMatrix x) {
        return kernel.matrix(map.embed(x));
    }

    /** Trainable parameters: the map's and the kernel's hyperparameters. */
    public long parameterCount() {
        return map.parameterCount() + kernel.hyperparameters().length;
    }
}

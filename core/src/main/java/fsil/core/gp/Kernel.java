package fsil.core.gp;

import org.ejml.data.DMatrixRMaj;

/**
 * A covariance function k(x, x') with a forward pass (kernel matrices) and a backward pass (from dL/dK to
 * dL/dinputs and dL/dhyperparameters), in the style of GPyTorch: a kernel knows nothing about likelihoods,
 * objectives or inference; callers compute dL/dK in closed form and pull it back through {@link #backward}.
 *
 * <p>Inputs are the rows of a DMatrixRMaj (n x d, raw features or the output of a trainable feature map).
 * Hyperparameters are a flat double[] in log space (log outputscale, log lengthscale, ...) so optimisers can
 * treat them like weights; {@link #hyperparameterNames()} says which is which.
 *
 * <p>Implementations are mutable only through {@link #setHyperparameters}; concurrent forward/backward calls on
 * one instance are safe as long as nobody changes the hyperparameters meanwhile.
 */
public interface Kernel {

    /** Short id, e.g. {@code rbf}. */
    String name();

    /** Names of the entries of {@link #hyperparameters()}, e.g. {@code log_outputscale}. */
    String[] hyperparameterNames();

    /** The hyperparameters in log space (a copy). */
    double[] hyperparameters();

    /** Sets the hyperparameters from log-space values (length {@link #numHyperparameters()}, all finite). */
    void setHyperparameters(double[] logValues);

    default int numHyperparameters() {
        return hyperparameterNames().length;
    }

    /** K with K[i][j] = k(x1_i, x2_j), n1 x n2. If x1 and x2 are the same object this is {@link #matrix(DMatrixRMaj)}. */
    DMatrixRMaj matrix(DMatrixRMaj x1, DMatrixRMaj x2);

    /** The symmetric n x n matrix K(x, x), exactly symmetric. */
    DMatrixRMaj matrix(DMatrixRMaj x);

    /** diag K(x, x) without forming the matrix. */
    double[] diag(DMatrixRMaj x);

    /**
     * Backward pass of {@link #matrix(DMatrixRMaj, DMatrixRMaj)}: given G = dL/dK (n1 x n2), the partial
     * derivatives of L with respect to each argument slot and the log hyperparameters. When the same matrix is
     * passed as both arguments, each slot still gets its own partial derivative and the total gradient with
     * respect to that matrix is dx1 + dx2 (equal to {@link #backward(DMatrixRMaj, DMatrixRMaj)}'s dx).
     */
    KernelGradients backward(DMatrixRMaj x1, DMatrixRMaj x2, DMatrixRMaj dLdK);

    /**
     * Backward pass of {@link #matrix(DMatrixRMaj)}: given G = dL/dK (n x n, need not be symmetric), the total
     * gradient with respect to x (both arguments of K(x, x) vary together) and the log hyperparameters.
     */
    SymmetricKernelGradients backward(DMatrixRMaj x, DMatrixRMaj dLdK);

    /** Gradient with respect to the log hyperparameters of L(diag K(x, x)) given dL/ddiag. */
    double[] backwardDiag(DMatrixRMaj x, double[] dLdDiag);

    /** An independent copy with the same hyperparameters. */
    Kernel copy();
}

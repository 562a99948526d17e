package fsil.core.gp;

import org.ejml.data.DMatrixRMaj;

/**
 * Result of {@link Kernel#backward(DMatrixRMaj, DMatrixRMaj)} for K(x, x).
 *
 * @param dx     total dL/dx, n x d
 * @param dHyper dL/d(log hyperparameters), in the order of {@link Kernel#hyperparameterNames()}
 */
public record SymmetricKernelGradients(DMatrixRMaj dx, double[] dHyper) {
}

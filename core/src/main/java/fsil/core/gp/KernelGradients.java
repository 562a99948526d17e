package fsil.core.gp;

import org.ejml.data.DMatrixRMaj;

/**
 * Result of {@link Kernel#backward(DMatrixRMaj, DMatrixRMaj, DMatrixRMaj)}.
 *
 * @param dx1    dL/dx1, n1 x d (partial derivative with respect to the first argument slot)
 * @param dx2    dL/dx2, n2 x d (partial derivative with respect to the second argument slot)
 * @param dHyper dL/d(log hyperparameters), in the order of {@link Kernel#hyperparameterNames()}
 */
public record KernelGradients(DMatrixRMaj dx1, DMatrixRMaj dx2, double[] dHyper) {
}

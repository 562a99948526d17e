package fsil.methods.gptree;

import org.ejml.data.DMatrixRMaj;

/** The binary GP classifier of an internal tree node: p(right child | x) for embedded inputs. */
interface NodeModel {

    /** p(go right | x_*) for each row of {@code queries} (embedded inputs, t x e). */
    double[] probabilityRight(DMatrixRMaj queries);

    /** Bytes of state kept (training inputs, factors, variational parameters). */
    long memoryBytes();

    /** Short name for diagnostics ({@code gibbs}, {@code vi}). */
    String kind();
}

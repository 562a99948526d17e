package fsil.core.nn;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * A fully connected layer {@code y = x W^T + b} on a mini-batch stored row-major (batch x in -> batch x out).
 * W is out x in. The products use EJML's single-threaded kernels, so results do not depend on the thread count.
 */
public final class Dense {
    private final int in;
    private final int out;
    private final DMatrixRMaj weight;
    private final double[] bias;
    private final DMatrixRMaj weightGrad;
    private final double[] biasGrad;

    /**
     * A layer with He-normal weights (std sqrt(2 / in), suited to ReLU inputs) and zero bias.
     *
     * @param rng the initialisation stream
     */
    public Dense(int in, int out, UniformRandomProvider rng, Parameters params) {
        if (in < 1 || out < 1) {
            throw new IllegalArgumentException("layer sizes must be >= 1, got " + in + " -> " + out);
        }
        this.in = in;
        this.out = out;
        double[] w = new double[out * in];
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double std = Math.sqrt(2.0 / in);
        for (int i = 0; i < w.length; i++) {
            w[i] = std * g.sample();
        }
        this.bias = new double[out];
        this.weight = DMatrixRMaj.wrap(out, in, w);
        this.weightGrad = DMatrixRMaj.wrap(out, in, params.add(w));
        this.biasGrad = params.add(bias);
    }

    public int inputSize() {
        return in;
    }

    public int outputSize() {
        return out;
    }

    /** The weights, row-major out x in (live view). */
    public double[] weights() {
        return weight.data;
    }

    /** The bias (live view). */
    public double[] bias() {
        return bias;
    }

    /** {@code y = x W^T + b} for the first {@code x.numRows} rows. */
    public void forward(DMatrixRMaj x, DMatrixRMaj y) {
        CommonOps_DDRM.multTransB(x, weight, y);
        int n = y.numRows;
        double[] yd = y.data;
        for (int r = 0; r < n; r++) {
            int off = r * out;
            for (int j = 0; j < out; j++) {
                yd[off + j] += bias[j];
            }
        }
    }

    /**
     * Adds the parameter gradients for upstream gradient {@code dy} (batch x out) and input {@code x}, and writes
     * the input gradient {@code dx = dy W} when {@code dx} is not null.
     */
    public void backward(DMatrixRMaj x, DMatrixRMaj dy, DMatrixRMaj dx) {
        CommonOps_DDRM.multAddTransA(dy, x, weightGrad);
        int n = dy.numRows;
        double[] d = dy.data;
        for (int r = 0; r < n; r++) {
            int off = r * out;
            for (int j = 0; j < out; j++) {
                biasGrad[j] += d[off + j];
            }
        }
        if (dx != null) {
            CommonOps_DDRM.mult(dy, weight, dx);
        }
    }
}

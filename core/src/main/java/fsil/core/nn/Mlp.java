package fsil.core.nn;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A multi-layer perceptron feature map: dense layers with ReLU between them, e.g. sizes {@code [784, 512, 256,
 * 128]}. With {@code reluOnOutput} the last layer is also followed by a ReLU (the usual choice for a feature
 * extractor whose output feeds a classifier); without it the output is linear.
 * <p>
 * Use: {@link #newBatch(int)} allocates the activation buffers for a maximum batch size once; {@link #forward}
 * fills them; after an objective has computed dL/d(output) into {@link Batch#outputGradient()}, {@link #backward}
 * adds dL/d(parameters) into {@link #parameters()}' gradients (and optionally gives dL/d(input)). Any objective can
 * train the map this way (cross-entropy with a {@link Dense} classifier, a GP marginal likelihood, ...), with an
 * {@link Optimizer} stepping the parameters. No allocation happens per sample or per step.
 */
public final class Mlp {
    private final int[] sizes;
    private final boolean reluOnOutput;
    private final List<Dense> layers = new ArrayList<>();
    private final Parameters parameters = new Parameters();

    /**
     * @param sizes        input size, then the width of every layer (at least two entries)
     * @param reluOnOutput whether the last layer is followed by a ReLU
     * @param seed         initialisation seed (layer l uses stream {@code child(seed, l)})
     */
    public Mlp(int[] sizes, boolean reluOnOutput, long seed) {
        if (sizes.length < 2) {
            throw new IllegalArgumentException("an MLP needs an input size and at least one layer, got "
                    + Arrays.toString(sizes));
        }
        this.sizes = sizes.clone();
        this.reluOnOutput = reluOnOutput;
        for (int l = 0; l + 1 < sizes.length; l++) {
            UniformRandomProvider rng = RandomStreams.child(seed, l);
            layers.add(new Dense(sizes[l], sizes[l + 1], rng, parameters));
        }
    }

    public int inputSize() {
        return sizes[0];
    }

    public int outputSize() {
        return sizes[sizes.length - 1];
    }

    public int[] sizes() {
        return sizes.clone();
    }

    public boolean reluOnOutput() {
        return reluOnOutput;
    }

    public List<Dense> layers() {
        return List.copyOf(layers);
    }

    public Parameters parameters() {
        return parameters;
    }

    private boolean reluAfter(int l) {
        return l + 1 < layers.size() || reluOnOutput;
    }

    /** Activation buffers for batches of up to {@code maxBatch} rows. */
    public Batch newBatch(int maxBatch) {
        return new Batch(maxBatch);
    }

    /** Per-batch activations: the input, each layer's output (after its ReLU) and the gradient buffers. */
    public final class Batch {
        private final int maxBatch;
        final DMatrixRMaj[] acts;
        final DMatrixRMaj[] grads;

        Batch(int maxBatch) {
            this.maxBatch = maxBatch;
            acts = new DMatrixRMaj[sizes.length];
            grads = new DMatrixRMaj[sizes.length];
            for (int l = 0; l < sizes.length; l++) {
                acts[l] = new DMatrixRMaj(maxBatch, sizes[l]);
                grads[l] = new DMatrixRMaj(maxBatch, sizes[l]);
            }
        }

        /** Rows currently in the batch. */
        public int rows() {
            return acts[0].numRows;
        }

        /** Input buffer (rows x input size, row-major); fill it, or use {@link #setInput}. */
        public double[] input() {
            return acts[0].data;
        }

        /** Output of the map (rows x output size, row-major), valid after {@link #forward}. */
        public double[] output() {
            return acts[acts.length - 1].data;
        }

        /** Where the objective writes dL/d(output) before {@link #backward}. */
        public double[] outputGradient() {
            return grads[grads.length - 1].data;
        }

        /** dL/d(input), valid after {@code backward(batch, true)}. */
        public double[] inputGradient() {
            return grads[0].data;
        }

        /** Sets the batch size to {@code rows} (<= maxBatch) without touching the buffers' contents. */
        public void resize(int rows) {
            if (rows < 0 || rows > maxBatch) {
                throw new IllegalArgumentException("batch of " + rows + " rows exceeds the buffer of " + maxBatch);
            }
            for (int l = 0; l < sizes.length; l++) {
                acts[l].reshape(rows, sizes[l], true);
                grads[l].reshape(rows, sizes[l], true);
            }
        }

        /** Copies rows {@code rows[from..to)} of a row-major float matrix (n x inputSize) into the input buffer. */
        public void setInput(float[] x, int[] rows, int from, int to) {
            resize(to - from);
            int d = sizes[0];
            double[] dst = acts[0].data;
            for (int r = from; r < to; r++) {
                int src = rows == null ? r * d : rows[r] * d;
                int off = (r - from) * d;
                for (int j = 0; j < d; j++) {
                    dst[off + j] = x[src + j];
                }
            }
        }
    }

    /** Forward pass over the batch's current rows. */
    public void forward(Batch b) {
        for (int l = 0; l < layers.size(); l++) {
            DMatrixRMaj y = b.acts[l + 1];
            layers.get(l).forward(b.acts[l], y);
            if (reluAfter(l)) {
                double[] d = y.data;
                int n = y.numRows * y.numCols;
                for (int i = 0; i < n; i++) {
                    if (d[i] < 0) {
                        d[i] = 0;
                    }
                }
            }
        }
    }

    /**
     * Backward pass: reads dL/d(output) from {@link Batch#outputGradient()} (it is overwritten), adds the parameter
     * gradients, and computes dL/d(input) when {@code inputGradient} is true.
     */
    public void backward(Batch b, boolean inputGradient) {
        for (int l = layers.size() - 1; l >= 0; l--) {
            DMatrixRMaj dy = b.grads[l + 1];
            if (reluAfter(l)) {
                // ReLU derivative from the post-activation output: 1 where the output is positive (0 at the kink)
                double[] y = b.acts[l + 1].data;
                double[] g = dy.data;
                int n = dy.numRows * dy.numCols;
                for (int i = 0; i < n; i++) {
                    if (y[i] <= 0) {
                        g[i] = 0;
                    }
                }
            }
            layers.get(l).backward(b.acts[l], dy, l > 0 || inputGradient ? b.grads[l] : null);
        }
    }

    /**
     * Features for all rows of {@code x} (n x inputSize, row-major) as float32, computed in batches.
     */
    public float[] transform(float[] x, int n, int batchSize) {
        int dOut = outputSize();
        float[] out = new float[n * dOut];
        Batch b = newBatch(Math.min(batchSize, Math.max(n, 1)));
        for (int from = 0; from < n; from += batchSize) {
            int to = Math.min(n, from + batchSize);
            b.setInput(x, null, from, to);
            forward(b);
            double[] y = b.output();
            for (int i = 0; i < (to - from) * dOut; i++) {
                out[from * dOut + i] = (float) y[i];
            }
        }
        return out;
    }
}

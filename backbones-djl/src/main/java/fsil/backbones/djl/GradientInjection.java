package fsil.backbones.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.GradientCollector;
import ai.djl.util.Pair;
import fsil.api.EmbeddingObjective;
import fsil.api.FsilException;

/**
 * Back-propagation of a gradient computed outside PyTorch: a method that scores embeddings in Java (a GP marginal
 * likelihood, a transductive objective) computes {@code g = dL/dz} for the network's output {@code z} and lets
 * PyTorch carry it to the weights. Since {@code d(sum(z * g))/dz = g} for a constant {@code g}, back-propagating
 * the scalar {@code sum(z * g)} leaves {@code dL/dw} in every parameter's gradient (checked against central finite
 * differences in float64, {@code GradientInjectionTest}).
 */
public final class GradientInjection {

    private GradientInjection() {
    }

    /**
     * Adds {@code dL/dw = g^T dz/dw} to the gradients of the parameters {@code z} depends on.
     *
     * @param collector the open gradient collector {@code z} was computed under
     * @param z         the network's output
     * @param gradient  {@code dL/dz}, the shape of {@code z} (values in row-major order), as float64
     */
    public static void backward(GradientCollector collector, NDArray z, double[] gradient) {
        if (gradient.length != z.size()) {
            throw new FsilException("gradient injection: " + gradient.length + " gradient values for an output of"
                    + " shape " + z.getShape());
        }
        try (NDArray g = z.getManager().create(gradient, z.getShape()).toType(z.getDataType(), false)) {
            collector.backward(z.mul(g).sum());
        }
    }

    /**
     * One training step's loss through a method's objective: the embeddings {@code z} ({@code rows x d}, computed
     * under {@code collector}) go to {@code training} as float64, and the gradient it returns is back-propagated with
     * {@link #backward}. When the objective cannot score the episode (a non-finite loss) nothing is back-propagated.
     *
     * @return the loss (non-finite: the episode is to be skipped; do not step the optimisers)
     */
    public static double objective(GradientCollector collector, NDArray z, EmbeddingObjective.Training training,
                                   int[] labels, int supportSize, int ways, long seed) {
        if (z.getShape().dimension() != 2 || z.getShape().get(0) != labels.length) {
            throw new FsilException("objective: embeddings of shape " + z.getShape() + " for " + labels.length
                    + " labels");
        }
        int d = Math.toIntExact(z.getShape().get(1));
        double[] values = z.toType(DataType.FLOAT64, false).toDoubleArray();
        double[] gradient = new double[values.length];
        double loss = training.loss(new EmbeddingObjective.Episode(values, d, labels, supportSize, ways, seed),
                gradient);
        if (Double.isFinite(loss)) {
            backward(collector, z, gradient);
        }
        return loss;
    }

    /**
     * Sets the gradient of every trainable parameter of {@code block} to exactly zero. DJL 0.36's own reset
     * ({@code GradientCollector}) subtracts each gradient from itself, which keeps a NaN or infinity: seen here as
     * NaN gradients of the first convolution, now and then, depending on what the process did before (freshly
     * attached gradient memory). Filling with zeros has no such case. Call it before each backward pass.
     * <p>
     * The zeros are written by libtorch in place ({@code grad.zero_()}, through DJL's {@link JniUtils#zeroGrad}, what
     * DJL's optimisers call after each update); a gradient not yet created (before the first backward pass) stays
     * so, and the backward pass creates it. An earlier version wrote a Java array of zeros with
     * {@code NDArray.set(Buffer)}, which in DJL 0.36 does not copy: it points the gradient's storage to a new direct
     * buffer, held with a new gradient handle by the parameters' manager until the model is closed. That leaked two
     * copies of the gradients per step (ResNet-12 at width 1/4, 812,704 parameters: +308 MB of resident memory over
     * 50 steps) and page-faulted fresh memory each step.
     */
    public static void zeroGradients(Block block) {
        for (Pair<String, Parameter> p : block.getParameters()) {
            Parameter param = p.getValue();
            if (!param.isInitialized() || !param.requiresGradient()) {
                continue;
            }
            NDArray a = param.getArray();
            if (!a.hasGradient()) {
                continue;
            }
            if (!(a instanceof PtNDArray t)) {
                throw new FsilException("gradients of " + a.getClass().getSimpleName() + " arrays are not supported"
                        + " (PyTorch engine only)");
            }
            JniUtils.zeroGrad(t);
        }
    }
}

package fsil.core.nn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The trainable arrays of a model and their gradient accumulators, in a fixed order. Optimizers update
 * {@code values().get(i)} from {@code gradients().get(i)}; models add into the gradient arrays in their backward
 * pass, so several objectives can contribute before one optimizer step.
 */
public final class Parameters {
    private final List<double[]> values = new ArrayList<>();
    private final List<double[]> gradients = new ArrayList<>();

    /** Registers a parameter array; its gradient accumulator is allocated here. */
    public double[] add(double[] value) {
        values.add(value);
        double[] g = new double[value.length];
        gradients.add(g);
        return g;
    }

    /** Adds every array of {@code other} (e.g. a feature map and a classifier trained together). */
    public Parameters addAll(Parameters other) {
        for (int i = 0; i < other.values.size(); i++) {
            values.add(other.values.get(i));
            gradients.add(other.gradients.get(i));
        }
        return this;
    }

    public List<double[]> values() {
        return Collections.unmodifiableList(values);
    }

    public List<double[]> gradients() {
        return Collections.unmodifiableList(gradients);
    }

    /** Sets every gradient to zero. */
    public void zeroGradients() {
        for (double[] g : gradients) {
            java.util.Arrays.fill(g, 0);
        }
    }

    /** Total number of scalar parameters. */
    public long count() {
        long n = 0;
        for (double[] v : values) {
            n += v.length;
        }
        return n;
    }
}

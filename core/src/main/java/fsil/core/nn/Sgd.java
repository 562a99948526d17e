package fsil.core.nn;

import java.util.ArrayList;
import java.util.List;

/** Stochastic gradient descent with optional momentum: {@code v = mu v + g; w -= lr v}. */
public final class Sgd implements Optimizer {
    private final double learningRate;
    private final double momentum;
    private final List<double[]> velocity = new ArrayList<>();

    public Sgd(double learningRate, double momentum) {
        if (!(learningRate > 0) || !(momentum >= 0 && momentum < 1)) {
            throw new IllegalArgumentException("SGD needs lr > 0 and 0 <= momentum < 1, got " + learningRate + ", "
                    + momentum);
        }
        this.learningRate = learningRate;
        this.momentum = momentum;
    }

    @Override
    public void step(Parameters params) {
        List<double[]> w = params.values();
        List<double[]> g = params.gradients();
        while (velocity.size() < w.size()) {
            velocity.add(new double[w.get(velocity.size()).length]);
        }
        for (int a = 0; a < w.size(); a++) {
            double[] wa = w.get(a);
            double[] ga = g.get(a);
            double[] va = velocity.get(a);
            for (int i = 0; i < wa.length; i++) {
                va[i] = momentum * va[i] + ga[i];
                wa[i] -= learningRate * va[i];
            }
        }
    }
}

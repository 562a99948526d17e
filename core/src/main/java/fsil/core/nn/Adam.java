package fsil.core.nn;

import java.util.ArrayList;
import java.util.List;

/**
 * Adam (Kingma and Ba 2015) with bias correction and optional decoupled weight decay (AdamW, Loshchilov and
 * Hutter 2019): {@code m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2;
 * w -= lr (m/(1-b1^t)) / (sqrt(v/(1-b2^t)) + eps) + lr wd w}.
 */
public final class Adam implements Optimizer {
    private final double learningRate;
    private final double beta1;
    private final double beta2;
    private final double epsilon;
    private final double weightDecay;
    private final List<double[]> m = new ArrayList<>();
    private final List<double[]> v = new ArrayList<>();
    private long t;

    /** Adam with the usual defaults b1 = 0.9, b2 = 0.999, eps = 1e-8. */
    public Adam(double learningRate, double weightDecay) {
        this(learningRate, 0.9, 0.999, 1e-8, weightDecay);
    }

    public Adam(double learningRate, double beta1, double beta2, double epsilon, double weightDecay) {
        if (!(learningRate > 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) || !(epsilon > 0)
                || !(weightDecay >= 0)) {
            throw new IllegalArgumentException("Adam needs lr > 0, 0 <= beta < 1, eps > 0, wd >= 0");
        }
        this.learningRate = learningRate;
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.epsilon = epsilon;
        this.weightDecay = weightDecay;
    }

    @Override
    public void step(Parameters params) {
        List<double[]> w = params.values();
        List<double[]> g = params.gradients();
        while (m.size() < w.size()) {
            m.add(new double[w.get(m.size()).length]);
            v.add(new double[w.get(v.size()).length]);
        }
        t++;
        double c1 = 1 - Math.pow(beta1, t);
        double c2 = 1 - Math.pow(beta2, t);
        for (int a = 0; a < w.size(); a++) {
            double[] wa = w.get(a);
            double[] ga = g.get(a);
            double[] ma = m.get(a);
            double[] va = v.get(a);
            for (int i = 0; i < wa.length; i++) {
                ma[i] = beta1 * ma[i] + (1 - beta1) * ga[i];
                va[i] = beta2 * va[i] + (1 - beta2) * ga[i] * ga[i];
                double update = (ma[i] / c1) / (Math.sqrt(va[i] / c2) + epsilon);
                wa[i] -= learningRate * (update + weightDecay * wa[i]);
            }
        }
    }
}

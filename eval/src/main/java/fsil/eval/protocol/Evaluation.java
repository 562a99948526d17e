package fsil.eval.protocol;

import fsil.api.Prediction;

/** Scoring a prediction against true labels: accuracy and predicted labels. */
final class Evaluation {
    private Evaluation() {
    }

    /** Accuracy and each row's most probable class (ties to the smaller column). */
    record Score(double accuracy, int correct, int[] predicted) {
    }

    static Score score(Prediction p, int[] truth) {
        if (p.size() != truth.length) {
            throw new IllegalStateException("method returned " + p.size() + " predictions for " + truth.length + " queries");
        }
        int[] predicted = new int[truth.length];
        int ok = 0;
        for (int i = 0; i < truth.length; i++) {
            predicted[i] = p.classAt(p.argmax(i));
            ok += predicted[i] == truth[i] ? 1 : 0;
        }
        return new Score(truth.length == 0 ? Double.NaN : ok / (double) truth.length, ok, predicted);
    }

    /** Fraction of rows whose most probable class is the true label. */
    static double accuracy(Prediction p, int[] truth) {
        return score(p, truth).accuracy();
    }
}

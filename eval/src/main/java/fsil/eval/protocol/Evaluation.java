package fsil.eval.protocol;

import fsil.api.Prediction;
import fsil.eval.metrics.CalibrationBins;

/** Scoring a prediction against true labels: accuracy and reliability bins in one pass over the rows. */
final class Evaluation {
    private Evaluation() {
    }

    /** Accuracy and calibration bins of a prediction. */
    record Score(double accuracy, CalibrationBins bins, int[] predicted) {
    }

    static Score score(Prediction p, int[] truth) {
        if (p.size() != truth.length) {
            throw new IllegalStateException("method returned " + p.size() + " predictions for " + truth.length + " queries");
        }
        double[] prob = p.rawProbabilities();
        int c = p.numClasses();
        int[] predicted = new int[truth.length];
        CalibrationBins bins = new CalibrationBins();
        int ok = 0;
        for (int i = 0; i < truth.length; i++) {
            int off = i * c;
            int best = 0;
            double bestP = prob[off];
            for (int k = 1; k < c; k++) {
                if (prob[off + k] > bestP) {
                    bestP = prob[off + k];
                    best = k;
                }
            }
            predicted[i] = p.classAt(best);
            boolean correct = predicted[i] == truth[i];
            ok += correct ? 1 : 0;
            bins.add(bestP, correct);
        }
        // compact: a run keeps every unit's bins in memory until its summaries are written
        return new Score(truth.length == 0 ? Double.NaN : ok / (double) truth.length, bins.compact(), predicted);
    }

    /** Fraction of rows whose most probable class is the true label. */
    static double accuracy(Prediction p, int[] truth) {
        return score(p, truth).accuracy();
    }
}

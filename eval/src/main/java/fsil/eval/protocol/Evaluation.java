package fsil.eval.protocol;

import fsil.api.Prediction;
import fsil.eval.metrics.CalibrationBins;

/** Scoring a prediction against true labels: accuracy, predicted labels and reliability bins. */
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
        // First pass: each row's most probable column (kept in predicted for now) and the range of confidences, so
        // that the bins are made at the size they end up with (a run keeps every unit's bins until its summaries).
        double minConfidence = Double.POSITIVE_INFINITY;
        double maxConfidence = Double.NEGATIVE_INFINITY;
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
            predicted[i] = best;
            minConfidence = Math.min(minConfidence, bestP);
            maxConfidence = Math.max(maxConfidence, bestP);
        }
        CalibrationBins bins = truth.length == 0 ? new CalibrationBins().compact()
                : CalibrationBins.covering(minConfidence, maxConfidence);
        int ok = 0;
        for (int i = 0; i < truth.length; i++) {
            double confidence = prob[i * c + predicted[i]];
            predicted[i] = p.classAt(predicted[i]);
            boolean correct = predicted[i] == truth[i];
            ok += correct ? 1 : 0;
            bins.add(confidence, correct);
        }
        return new Score(truth.length == 0 ? Double.NaN : ok / (double) truth.length, bins, predicted);
    }

    /** Fraction of rows whose most probable class is the true label. */
    static double accuracy(Prediction p, int[] truth) {
        return score(p, truth).accuracy();
    }
}

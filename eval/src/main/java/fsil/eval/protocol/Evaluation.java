package fsil.eval.protocol;

import fsil.api.Prediction;
import fsil.eval.metrics.CalibrationBins;

/** Scoring a prediction against true labels. */
final class Evaluation {
    private Evaluation() {
    }

    /** Fraction of rows whose most probable class is the true label. */
    static double accuracy(Prediction p, int[] truth) {
        checkRows(p, truth);
        int[] lab = p.labels();
        int ok = 0;
        for (int i = 0; i < lab.length; i++) {
            if (lab[i] == truth[i]) {
                ok++;
            }
        }
        return truth.length == 0 ? Double.NaN : ok / (double) truth.length;
    }

    static CalibrationBins calibration(Prediction p, int[] truth) {
        checkRows(p, truth);
        CalibrationBins bins = new CalibrationBins();
        int[] lab = p.labels();
        double[] conf = p.confidences();
        for (int i = 0; i < lab.length; i++) {
            bins.add(conf[i], lab[i] == truth[i]);
        }
        return bins;
    }

    private static void checkRows(Prediction p, int[] truth) {
        if (p.size() != truth.length) {
            throw new IllegalStateException("method returned " + p.size() + " predictions for " + truth.length + " queries");
        }
    }
}

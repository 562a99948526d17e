package fsil.core.calibration;

/**
 * The result of {@link TemperatureScaling#fit}.
 *
 * @param temperature        the fitted T &gt; 0 (calibrated probabilities are softmax(log p / T))
 * @param inverseTemperature beta = 1 / T, the variable the search runs over
 * @param nllBefore          mean NLL of softmax(log p) on the fitting data, i.e. before scaling (T = 1)
 * @param nllAfter           mean NLL of softmax(log p / T) on the fitting data at the fitted T
 * @param iterations         golden-section iterations taken (0 when nothing was fitted)
 * @param atBound            the fit stopped at an end of the search range [1/50, 50] for T: separable fitting data
 *                           (every label has the largest probability of its row, so sharpening always helps and
 *                           T = 1/50), or a golden-section bracket that never moved off an end of the range
 */
public record TemperatureFit(double temperature, double inverseTemperature, double nllBefore, double nllAfter,
                             int iterations, boolean atBound) {
}

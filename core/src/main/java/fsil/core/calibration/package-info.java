/**
 * Calibration numerics on row-major {@code n x C} probability matrices ({@code double[]}, row i = the prediction for
 * example i) with {@code int[]} labels (the column of the true class of each row):
 * <ul>
 *   <li>{@link fsil.core.calibration.ScoringRules}: negative log-likelihood (floored at 1e-300) and the multi-class
 *       Brier score, per row, summed and averaged;</li>
 *   <li>{@link fsil.core.calibration.AdaptiveEce}: ECE over equal-mass bins (np.array_split of the stable confidence
 *       order), checked against a numpy reference ({@code core/src/test/python/calibration_fixtures.py});</li>
 *   <li>{@link fsil.core.calibration.TemperatureScaling}: fitting and applying one temperature (Guo et al. 2017),
 *       with the closed-form derivatives of its objective.</li>
 * </ul>
 * The equal-width bins of the evaluation module ({@code fsil.eval.metrics.CalibrationBins}) are separate and unchanged.
 */
package fsil.core.calibration;

/**
 * Comparative statistics for experiments: paired comparison of two methods ({@link fsil.core.stats.PairedComparison},
 * {@link fsil.core.stats.Wilcoxon}, {@link fsil.core.stats.Holm}) and comparison of several methods over blocks
 * ({@link fsil.core.stats.BlockComparison}, {@link fsil.core.stats.CriticalDifference},
 * {@link fsil.core.stats.StudentizedRange}), following Demsar (JMLR 2006) and matching scipy 1.10 where scipy has
 * the same test. Plain double arithmetic; invalid input throws {@link java.lang.IllegalArgumentException}.
 */
package fsil.core.stats;

/**
 * A run's summaries and report, rebuilt from its store alone. {@link fsil.eval.report.Report} writes the files of a
 * run directory: the tables of {@link fsil.eval.report.Summary} (summary.csv), {@link
 * fsil.eval.report.AccuracyMatrixTable} (a_matrix.csv) and {@link fsil.eval.report.ReliabilityTable}
 * (reliability.csv), through {@link fsil.eval.report.CsvTables}; the page of {@code ReportPage} and
 * {@code ReportFigures} (report.html, assembled by {@code HtmlPage}, every user string escaped by {@code Html} and
 * {@link fsil.eval.report.Plot}); and the checked copy of plotly.min.js ({@link fsil.eval.report.PlotlyAsset}).
 * {@link fsil.eval.report.Formats} shows values in their units, for the page and the terminal;
 * {@link fsil.eval.report.CompareReport} writes the files of {@code fsil compare}.
 */
package fsil.eval.report;

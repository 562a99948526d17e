package fsil.eval.report;

import fsil.api.FsilException;
import fsil.data.Datasets;
import fsil.data.io.AtomicFiles;
import fsil.eval.metrics.Metric;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import tech.tablesaw.api.Table;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the summaries ({@code summary.csv}, {@code a_matrix.csv}, {@code reliability.csv}) and an HTML report
 * (tables and Plotly figures) from a run's store alone. The report opens offline: {@code plotly.min.js} sits next to
 * it, a copy of its own ({@link PlotlyAsset}). The tables come from {@link Summary}, {@link AccuracyMatrixTable} and
 * {@link ReliabilityTable}, the page from {@link ReportPage}.
 */
public final class Report {
    public static final String SUMMARY = "summary.csv";
    public static final String A_MATRIX = "a_matrix.csv";
    public static final String RELIABILITY = "reliability.csv";
    public static final String HTML = "report.html";

    private Report() {
    }

    /**
     * Rebuilds every summary and the report of a run directory from its units.csv; returns the invalid rows, which
     * the summaries leave out and the report names.
     */
    public static List<UnitStore.Invalid> rebuild(Path dir, List<Metric> metrics) {
        return rebuild(dir, metrics, Datasets.defaultCacheDir());
    }

    /** As {@link #rebuild(Path, List)}, with plotly.js cached in {@code cacheDir}. */
    public static List<UnitStore.Invalid> rebuild(Path dir, List<Metric> metrics, Path cacheDir) {
        Path units = dir.resolve(UnitStore.FILE);
        if (!Files.exists(units)) {
            throw new FsilException(dir + " has no " + UnitStore.FILE + ": not a run directory, or a run that stored "
                    + "nothing yet");
        }
        UnitStore.Contents c = UnitStore.read(units);
        write(dir, c.rows(), metrics, SettingOptions.read(dir), c.invalid(), cacheDir);
        return c.invalid();
    }

    /** The summaries and report of the records, with the setting columns of the run in {@code dir} (if any). */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics) {
        write(dir, records, metrics, SettingOptions.read(dir), List.of());
    }

    /** As {@link #write(Path, List, List)}, with plotly.js cached in {@code cacheDir}. */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, Path cacheDir) {
        write(dir, records, metrics, SettingOptions.read(dir), List.of(), cacheDir);
    }

    /** As {@link #write(Path, List, List)}, with the given setting options (say, those of several runs). */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings) {
        write(dir, records, metrics, settings, List.of());
    }

    /** As {@link #write(Path, List, List, SettingOptions)}, with plotly.js cached in {@code cacheDir}. */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings,
                             Path cacheDir) {
        write(dir, records, metrics, settings, List.of(), cacheDir);
    }

    static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings,
                      List<UnitStore.Invalid> invalid) {
        write(dir, records, metrics, settings, invalid, Datasets.defaultCacheDir());
    }

    static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings,
                      List<UnitStore.Invalid> invalid, Path cacheDir) {
        List<Summary.Group> groups = Summary.groups(records); // one pass over the rows, for every table
        Table summary = Summary.summarizeGroups(groups, metrics, settings);
        CsvTables.write(dir.resolve(SUMMARY), summary);
        CsvTables.write(dir.resolve(A_MATRIX), AccuracyMatrixTable.ofGroups(groups));
        CsvTables.write(dir.resolve(RELIABILITY), ReliabilityTable.ofGroups(groups));
        PlotlyAsset.copyTo(dir, cacheDir);
        String title = dir.toAbsolutePath().getFileName() == null ? "run" : dir.toAbsolutePath().getFileName().toString();
        AtomicFiles.writeString(dir.resolve(HTML),
                ReportPage.html(title, dir, records, groups, metrics, summary, invalid));
    }
}

package fsil.eval.report;

import fsil.data.io.AtomicFiles;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

import java.io.StringWriter;
import java.nio.file.Path;

/** The CSV files of runs and comparisons: tables written whole (atomically), and selection.csv read back. */
public final class CsvTables {
    private CsvTables() {
    }

    /** Writes the table as CSV, replacing the file atomically. */
    static void write(Path file, Table t) {
        AtomicFiles.writeString(file, text(t));
    }

    /** The table as CSV text. */
    static String text(Table t) {
        StringWriter w = new StringWriter();
        t.write().csv(w);
        return w.toString();
    }

    /** selection.csv with its column types fixed (a dataset or candidate that looks like a number stays text). */
    public static Table readSelection(Path file) {
        ColumnType t = ColumnType.STRING;
        return Table.read().usingOptions(CsvReadOptions.builder(file.toFile())
                .columnTypes(new ColumnType[]{t, t, t, t, t, t,
                        ColumnType.DOUBLE, ColumnType.DOUBLE,
                        ColumnType.INTEGER, ColumnType.BOOLEAN})
                .tableName("selection"));
    }
}

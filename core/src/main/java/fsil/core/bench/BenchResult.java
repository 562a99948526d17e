package fsil.core.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an end-to-end {@link Benchmark} measured: a table with one row per variant and notes (the setting, the
 * reference, what a ratio means). Cells are {@link String}s or {@link Number}s; every row has one cell per column.
 *
 * @param title   one line: the benchmark and its setting
 * @param columns column names, with units (e.g. {@code ms/episode}, {@code time/ref})
 * @param rows    the rows, each as long as {@code columns}
 * @param notes   free lines printed under the table
 */
public record BenchResult(String title, List<String> columns, List<List<Object>> rows, List<String> notes) {

    public BenchResult {
        Objects.requireNonNull(title, "title");
        columns = List.copyOf(columns);
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row " + row + " has " + row.size() + " cells for "
                        + columns.size() + " columns " + columns);
            }
            for (Object cell : row) {
                if (!(cell instanceof String || cell instanceof Number)) {
                    throw new IllegalArgumentException("cell " + cell + " of row " + row
                            + " is neither a String nor a Number");
                }
            }
            copy.add(List.copyOf(row));
        }
        rows = List.copyOf(copy);
        notes = List.copyOf(notes);
    }

    /** The index of a column; an unknown name is an error that lists the columns. */
    public int column(String name) {
        int i = columns.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column '" + name + "' in " + columns);
        }
        return i;
    }

    /** The cells of a column, top to bottom. */
    public List<Object> values(String name) {
        int c = column(name);
        return rows.stream().map(r -> r.get(c)).toList();
    }

    /** The numeric cells of a column, top to bottom (a text cell is an error). */
    public double[] numbers(String name) {
        int c = column(name);
        double[] out = new double[rows.size()];
        for (int i = 0; i < out.length; i++) {
            Object v = rows.get(i).get(c);
            if (!(v instanceof Number n)) {
                throw new IllegalArgumentException("column '" + name + "' row " + i + " is not a number: " + v);
            }
            out[i] = n.doubleValue();
        }
        return out;
    }

    /** The row whose first cell is {@code label}. */
    public List<Object> row(String label) {
        for (List<Object> r : rows) {
            if (!r.isEmpty() && label.equals(r.get(0))) {
                return r;
            }
        }
        throw new IllegalArgumentException("no row '" + label + "' in " + values(columns.get(0)));
    }

    /** A numeric cell of the row whose first cell is {@code label}. */
    public double number(String label, String column) {
        Object v = row(label).get(column(column));
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("row '" + label + "' column '" + column + "' is not a number: " + v);
        }
        return n.doubleValue();
    }

    /** A table in the making: {@code BenchResult.builder(title, "variant", "ms").row("a", 1.0).build()}. */
    public static Builder builder(String title, String... columns) {
        return new Builder(title, List.of(columns));
    }

    /** Collects rows and notes. */
    public static final class Builder {
        private final String title;
        private final List<String> columns;
        private final List<List<Object>> rows = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        private Builder(String title, List<String> columns) {
            this.title = title;
            this.columns = columns;
        }

        public Builder row(Object... cells) {
            rows.add(List.of(cells));
            return this;
        }

        public Builder note(String line) {
            notes.add(line);
            return this;
        }

        public BenchResult build() {
            return new BenchResult(title, columns, rows, notes);
        }
    }
}

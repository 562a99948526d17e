package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads delimited text features with one label column: CSV, TSV or semicolon-separated, optionally gzipped.
 * <ul>
 *   <li>Delimiter: tab for {@code .tsv}/{@code .tab} files; otherwise detected from the first line (tab, then
 *       semicolon, then comma).</li>
 *   <li>Header: the first line is a header when any of its feature fields is not a number.</li>
 *   <li>Labels: when every label is an integer (any value, e.g. 100, 103, -1) the distinct values sorted
 *       numerically become classes 0..K-1, otherwise the distinct label strings sorted by code point do (as
 *       {@code np.unique} sorts them); the class names are the labels as text.</li>
 *   <li>Text must be UTF-8; invalid UTF-8 is an error naming the line and column.</li>
 *   <li>Empty lines and lines starting with {@code #} are skipped.</li>
 * </ul>
 * Every error names the file, the line and the column.
 */
public final class CsvReader {

    private CsvReader() {
    }

    /** Reads with the label in the last column. */
    public static LabeledTable read(Path file) {
        return read(file, -1);
    }

    /**
     * Reads a delimited file.
     *
     * @param labelColumn index of the label column; negative counts from the end (-1 = last)
     */
    public static LabeledTable read(Path file, int labelColumn) {
        try (TextLines lines = TextLines.open(file)) {
            return read(file.toString(), lines, delimiterFor(file), labelColumn, null);
        }
    }

    /**
     * Reads a delimited file whose label column is named: a header field (the first line is then the header), or an
     * integer index (0 = first column, negative counts from the end), or "" for the last column.
     */
    public static LabeledTable read(Path file, String labelColumn) {
        String l = labelColumn.strip();
        if (l.isEmpty()) {
            return read(file, -1);
        }
        if (l.matches("[+-]?[0-9]{1,9}")) {
            return read(file, Integer.parseInt(l));
        }
        try (TextLines lines = TextLines.open(file)) {
            return read(file.toString(), lines, delimiterFor(file), -1, l);
        }
    }

    private static Character delimiterFor(Path file) {
        String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        return name.endsWith(".tsv") || name.endsWith(".tab") ? Character.valueOf('\t') : null;
    }

    /**
     * Reads delimited text from a stream.
     *
     * @param delimiter the delimiter, or null to detect it from the first line
     */
    public static LabeledTable read(String source, InputStream in, Character delimiter, int labelColumn) {
        try (TextLines lines = new TextLines(source, in)) {
            return read(source, lines, delimiter, labelColumn, null);
        }
    }

    /** @param labelName the header name of the label column, or null to use {@code labelColumn} */
    private static LabeledTable read(String source, TextLines reader, Character delimiter, int labelColumn,
                                     String labelName) {
        FloatBuffer values = new FloatBuffer(source);
        List<String> rawLabels = new ArrayList<>();
        int columns = -1;
        int labelCol = 0;
        char delim = 0;
        String line;
        int lineNo;
        boolean first = true;
        while ((line = reader.next()) != null) {
            lineNo = reader.lineNumber();
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (first) {
                delim = delimiter != null ? delimiter : detect(line);
            }
            String[] fields = split(line, delim);
            if (first) {
                columns = fields.length;
                if (columns < 2) {
                    throw new InvalidDataException(source + ": line " + lineNo + " has " + columns + " column; need"
                            + " at least one feature column and a label column (delimiter '" + printable(delim)
                            + "')");
                }
                if (labelName != null) {
                    labelCol = -1;
                    List<String> names = new ArrayList<>();
                    for (int c = 0; c < columns; c++) {
                        names.add(fields[c].strip());
                        if (labelCol < 0 && fields[c].strip().equals(labelName)) {
                            labelCol = c;
                        }
                    }
                    if (labelCol < 0) {
                        throw new InvalidDataException(source + ": no column named '" + InputFiles.oneLine(labelName,
                                60) + "' in the header (line " + lineNo + "): " + InputFiles.oneLine(
                                String.join(", ", names), 200));
                    }
                    first = false;
                    continue;
                }
                labelCol = labelColumn < 0 ? columns + labelColumn : labelColumn;
                if (labelCol < 0 || labelCol >= columns) {
                    throw new InvalidDataException(source + ": label column " + labelColumn + " does not exist;"
                            + " the file has " + columns + " columns");
                }
                first = false;
                if (isHeader(fields, labelCol)) {
                    continue;
                }
            } else if (fields.length != columns) {
                throw new InvalidDataException(source + ": line " + lineNo + " has " + fields.length
                        + " columns but the first line has " + columns);
            }
            for (int c = 0; c < columns; c++) {
                if (c == labelCol) {
                    rawLabels.add(fields[c].strip());
                    continue;
                }
                String f = fields[c].strip();
                float v;
                try {
                    v = Float.parseFloat(f);
                } catch (NumberFormatException e) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", column " + (c + 1) + ": '"
                            + InputFiles.oneLine(f, 60) + "' is not a number");
                }
                if (!Float.isFinite(v)) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", column " + (c + 1) + ": value "
                            + InputFiles.oneLine(f, 60) + " is not finite; features must not contain NaN or Inf");
                }
                values.add(v);
            }
        }
        if (columns < 0 || rawLabels.isEmpty()) {
            throw new InvalidDataException(source + ": no data rows");
        }
        int n = rawLabels.size();
        FeatureMatrix features = FeatureMatrix.wrap(n, columns - 1, values.toArray());
        RawLabels labels;
        if (allIntegers(rawLabels)) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                String t = rawLabels.get(i);
                v[i] = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            }
            labels = RawLabels.ofInts(source, v);
        } else {
            labels = RawLabels.ofTexts(source, rawLabels.toArray(new String[0]));
        }
        return LabeledTable.of(source, features, labels);
    }

    private static boolean isHeader(String[] fields, int labelCol) {
        for (int c = 0; c < fields.length; c++) {
            if (c == labelCol) {
                continue;
            }
            String f = fields[c].strip();
            try {
                Float.parseFloat(f);
            } catch (NumberFormatException e) {
                return !f.equalsIgnoreCase("nan") && !f.equalsIgnoreCase("inf");
            }
        }
        return false;
    }

    private static final java.util.regex.Pattern INTEGER = java.util.regex.Pattern.compile("[+-]?[0-9]{1,18}");

    /** Whether every label is a decimal integer of at most 18 digits (so it fits in a long). */
    private static boolean allIntegers(List<String> labels) {
        for (String s : labels) {
            if (!INTEGER.matcher(s).matches()) {
                return false;
            }
        }
        return true;
    }

    private static char detect(String line) {
        if (line.indexOf('\t') >= 0) {
            return '\t';
        }
        if (line.indexOf(';') >= 0 && line.indexOf(',') < 0) {
            return ';';
        }
        return ',';
    }

    private static String printable(char c) {
        return c == '\t' ? "\\t" : String.valueOf(c);
    }

    /** Splits on the delimiter, honouring double quotes around fields (no escaped quotes inside). */
    static String[] split(String line, char delim) {
        if (line.indexOf('"') < 0) {
            return line.split(java.util.regex.Pattern.quote(String.valueOf(delim)), -1);
        }
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '"') {
                quoted = !quoted;
            } else if (ch == delim && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        out.add(cur.toString());
        return out.toArray(new String[0]);
    }

    /** A growable float array (no boxing). */
    static final class FloatBuffer {
        private final String source;
        private float[] data = new float[1024];
        private int size;

        FloatBuffer(String source) {
            this.source = source;
        }

        void add(float v) {
            if (size == data.length) {
                if (data.length >= Integer.MAX_VALUE / 2) {
                    throw new InvalidDataException(source + ": holds more than " + size + " values; too large");
                }
                data = Arrays.copyOf(data, data.length * 2);
            }
            data[size++] = v;
        }

        float[] toArray() {
            return Arrays.copyOf(data, size);
        }
    }
}

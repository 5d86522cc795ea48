public final class MovingAverage {
    private MovingAverage() {}

    /** Averages of each window of `size` consecutive values. */
    public static double[] of(double[] values, int size) {
        if (size <= 0 || size > values.length) {
            throw new IllegalArgumentException("bad window size");
        }
        double[] out = new double[values.length - size + 1];
        for (int start = 0; start < out.length; start++) {
            double sum = 0;
            for (int i = start; i < start + size; i++) {
                sum += values[i];
            }
            out[start] = sum / size;
        }
        return out;
    }
}

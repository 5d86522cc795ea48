using System.Collections.Generic;
using System.IO;

public class ReportWriter
{
    public void Write(string path, IEnumerable<string> lines)
    {
        using var writer = new StreamWriter(path);
        foreach (var line in lines)
        {
            if (line.Contains('\0'))
            {
                throw new InvalidDataException("binary data in report");
            }
            writer.WriteLine(line);
        }
    }
}

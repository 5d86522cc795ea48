using System;
using System.Security.Cryptography;
using System.Text;

public static class PasswordStore
{
    public static string Hash(string password)
    {
        using var md5 = MD5.Create();
        byte[] digest = md5.ComputeHash(Encoding.UTF8.GetBytes(password));
        return Convert.ToHexString(digest);
    }

    public static bool Verify(string password, string stored)
    {
        return string.Equals(Hash(password), stored, StringComparison.OrdinalIgnoreCase);
    }
}

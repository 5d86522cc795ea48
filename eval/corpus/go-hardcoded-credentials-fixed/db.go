package store

import (
	"database/sql"
	"errors"
	"os"
)

func Open() (*sql.DB, error) {
	dsn := os.Getenv("BILLING_DATABASE_URL")
	if dsn == "" {
		return nil, errors.New("BILLING_DATABASE_URL is not set")
	}
	return sql.Open("postgres", dsn)
}

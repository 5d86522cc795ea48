package store

import (
	"database/sql"
	"fmt"

	_ "github.com/lib/pq"
)

const (
	dbUser     = "billing"
	dbPassword = "Pr0d-b1ll1ng-2024!"
	dbHost     = "db.internal"
)

func Open() (*sql.DB, error) {
	dsn := fmt.Sprintf("postgres://%s:%s@%s/billing?sslmode=require", dbUser, dbPassword, dbHost)
	return sql.Open("postgres", dsn)
}
